// Kits kept across restarts with the entries used; bounded by count; a stored kit that no longer
// checks out is dropped on load; "used" only grows, and only with digests the kit holds.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { NonceRegistry, buildEmergencyKit, keySigner, kitDigests, type EmergencyKit } from '../../../client';
import { createMemoryStore } from '../../store/key-value-store';
import { KitStore, MAX_KITS } from './kit-store';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const MARKET = { assetId: 7n, label: 'BTC 5m', fromEpoch: 10n, toEpoch: 11n, until: '2026-07-01T12:10:00.000Z' };
const NOW = new Date('2026-07-01T12:00:00.000Z');

function kit(): Promise<EmergencyKit> {
  return buildEmergencyKit(
    { signer: keySigner(MASTER), domain: DOMAIN, nonces: new NonceRegistry(() => 1_780_000_000_000) },
    { contracts: { exchange: EXCHANGE, ledger: null }, markets: [MARKET], perEpoch: 2, revokeAgent: true },
  );
}

describe('kit store', () => {
  it('keeps kits and their used entries across a restart', async () => {
    const store = createMemoryStore();
    const k = await kit();
    const first = new KitStore(store);
    first.put(k, 'imported', NOW);
    const [d0, d1] = kitDigests(k);
    first.markUsed(k.id, d0!);
    first.markUsed(k.id, d0!.toUpperCase().replace('0X', '0x'));
    const again = new KitStore(store);
    expect(again.list()).toHaveLength(1);
    expect([...again.get(k.id).used]).toEqual([d0]);
    again.markUsed(k.id, d1!);
    expect(new KitStore(store).get(k.id).used.size).toBe(2);
    // The same kit taken in again keeps what was used.
    expect(new KitStore(store).put(k, 'imported', NOW).used.size).toBe(2);
    expect(JSON.parse(again.envelopeText(k.id))).toMatchObject({ fingerprint: k.fingerprint });
  });

  it('drops a stored kit that was changed, and digests the kit does not hold', async () => {
    const store = createMemoryStore();
    const k = await kit();
    const kits = new KitStore(store);
    kits.put(k, 'made', NOW);
    kits.markUsed(k.id, `0x${'ab'.repeat(32)}`);
    expect(new KitStore(store).get(k.id).used.size).toBe(0);
    const rows = store.get('emergencyKits') as { kit: { perEpoch: number } }[];
    rows[0]!.kit.perEpoch = 1;
    store.set('emergencyKits', rows);
    expect(new KitStore(store).list()).toEqual([]);
  });

  it('refuses a kit beyond its bound rather than drop one', async () => {
    const kits = new KitStore(createMemoryStore());
    for (let i = 0; i < MAX_KITS; i++) kits.put({ ...(await kit()) }, 'made', NOW);
    expect(kits.list()).toHaveLength(MAX_KITS);
    expect(() => kits.put(kits.list()[0]!.kit, 'made', NOW)).not.toThrow();
    await kit().then((extra) => expect(() => kits.put(extra, 'made', NOW)).toThrow(/already keeps 8/));
  });
});
