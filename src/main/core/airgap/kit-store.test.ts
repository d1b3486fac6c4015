// Kits kept across restarts with the entries used; bounded by count, and kits from the window by a
// few slots of their own; a stored kit that no longer checks out is dropped on load; "used" only
// grows, and only with digests the kit holds.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { NonceRegistry, buildEmergencyKit, keySigner, kitDigests, type EmergencyKit } from '../../../client';
import { createMemoryStore } from '../../store/key-value-store';
import { BridgeFailure } from '../bridge-runtime';
import { KitStore, MAX_KITS, WINDOW_KIT_SLOTS } from './kit-store';

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
    first.put(k, 'file', NOW);
    const [d0, d1] = kitDigests(k);
    first.markUsed(k.id, d0!);
    first.markUsed(k.id, d0!.toUpperCase().replace('0X', '0x'));
    const again = new KitStore(store);
    expect(again.list()).toHaveLength(1);
    expect([...again.get(k.id).used]).toEqual([d0]);
    again.markUsed(k.id, d1!);
    expect(new KitStore(store).get(k.id).used.size).toBe(2);
    // The same kit taken in again keeps what was used.
    expect(new KitStore(store).put(k, 'file', NOW).used.size).toBe(2);
    expect(JSON.parse(again.envelopeText(k.id))).toMatchObject({ fingerprint: k.fingerprint });
  });

  it('drops a stored kit that was changed, and digests the kit does not hold', async () => {
    const store = createMemoryStore();
    const k = await kit();
    const kits = new KitStore(store);
    kits.put(k, 'build', NOW);
    kits.markUsed(k.id, `0x${'ab'.repeat(32)}`);
    expect(new KitStore(store).get(k.id).used.size).toBe(0);
    const rows = store.get('emergencyKits') as { kit: { perEpoch: number } }[];
    rows[0]!.kit.perEpoch = 1;
    store.set('emergencyKits', rows);
    expect(new KitStore(store).list()).toEqual([]);
  });

  it('refuses a kit beyond its bound rather than drop one', async () => {
    const kits = new KitStore(createMemoryStore());
    for (let i = 0; i < MAX_KITS; i++) kits.put({ ...(await kit()) }, 'build', NOW);
    expect(kits.list()).toHaveLength(MAX_KITS);
    expect(() => kits.put(kits.list()[0]!.kit, 'build', NOW)).not.toThrow();
    await kit().then((extra) => expect(() => kits.put(extra, 'build', NOW)).toThrow(/already keeps 8/));
  });

  it('lets text from the window fill only its own few slots, and leaves the rest to the person', async () => {
    const store = createMemoryStore();
    const kits = new KitStore(store);
    for (let i = 0; i < WINDOW_KIT_SLOTS; i++) kits.put(await kit(), 'window', NOW);
    const extra = await kit();
    let refusal: unknown;
    try {
      kits.put(extra, 'window', NOW);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(BridgeFailure);
    expect(refusal).toMatchObject({ code: 'kit.too_many_from_window' });
    expect((refusal as BridgeFailure).message).toMatch(/^This machine already keeps 3 kits taken in from QR codes/);
    // A kit the window already brought in is kept again without a new slot.
    expect(() => kits.put(kits.list()[0]!.kit, 'window', NOW)).not.toThrow();
    // The person's own kits (made here, or a file picked in main's dialog) still fit, up to the total.
    kits.put(extra, 'file', NOW);
    while (kits.list().length < MAX_KITS) kits.put(await kit(), 'build', NOW);
    expect(() => kits.put(extra, 'file', NOW)).not.toThrow();
    await kit().then((k) => expect(() => kits.put(k, 'file', NOW)).toThrow(/already keeps 8 emergency kits/));
    // The sources survive a restart, and a store written before sources were kept counts imports as the window's.
    expect(new KitStore(store).list().map((k) => k.source)).toEqual([
      'window',
      'window',
      'window',
      'file',
      'build',
      'build',
      'build',
      'build',
    ]);
    const rows = store.get('emergencyKits') as { source?: string }[];
    for (const row of rows) delete row.source;
    store.set('emergencyKits', rows);
    expect(new KitStore(store).list().map((k) => k.source)).toEqual([
      'window',
      'window',
      'window',
      'window',
      'build',
      'build',
      'build',
      'build',
    ]);
  });
});
