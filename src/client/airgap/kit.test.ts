// An emergency kit made with the master key is read back on a machine without it, checked entry by
// entry, and hands out each pre-signed cancel-all exactly as buildSignedCancelAll would send it, once.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address, type Hex } from '../../shared/protocol';
import {
  NonceRegistry,
  buildSignedCancelAll,
  buildSignedRevokeAgent,
  keySigner,
  type SigningContext,
} from '../actions/signed-actions';
import { AirgapError } from './errors';
import type { EmergencyKit } from './formats';
import { buildEmergencyKit, kitCoverage, kitToJson, panicPlan, parseEmergencyKit } from './kit';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const OTHER = new DigestSigner(`0x${'22'.repeat(32)}`);
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const CONTRACTS = { exchange: EXCHANGE, ledger: null };
const MARKETS = [
  { assetId: 7n, label: 'BTC 5m', fromEpoch: 100n, toEpoch: 101n, until: '2026-07-01T12:10:00.000Z' },
  { assetId: 9n, label: 'ETH 15m', fromEpoch: 40n, toEpoch: 41n, until: '2026-07-01T12:30:00.000Z' },
];

function ctx(signer = MASTER): SigningContext {
  return { signer: keySigner(signer), domain: DOMAIN, nonces: new NonceRegistry(() => 1_780_000_000_000) };
}

async function kit(): Promise<EmergencyKit> {
  return buildEmergencyKit(ctx(), { contracts: CONTRACTS, markets: MARKETS, perEpoch: 3, revokeAgent: true });
}

const carry = (k: EmergencyKit): Record<string, unknown> =>
  JSON.parse(JSON.stringify(kitToJson(k))) as Record<string, unknown>;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AirgapError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('emergency kit', () => {
  it('reads back what it wrote and covers every market, epoch and slot', async () => {
    const k = await kit();
    const back = parseEmergencyKit(carry(k));
    expect(back.cancels).toHaveLength(2 * 2 * 3);
    expect(back.fingerprint).toBe(k.fingerprint);
    const cover = kitCoverage(back, new Set());
    expect(cover.markets.map((m) => [m.label, m.total, m.used])).toEqual([
      ['BTC 5m', 6, 0],
      ['ETH 15m', 6, 0],
    ]);
    expect(cover.until).toBe('2026-07-01T12:30:00.000Z');
    expect(cover.revocation).toBe('unused');
  });

  it('sends exactly the bodies the online builders make, and never one twice', async () => {
    const k = parseEmergencyKit(carry(await kit()));
    const epochs = new Map([
      [7n, 101n],
      [9n, 40n],
    ]);
    const used = new Set<string>();
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const plan = panicPlan(k, epochs, used, { revokeAgent: round === 0 });
      expect(plan.gaps).toEqual([]);
      for (const s of plan.sends) {
        expect(seen).not.toContain(s.digest);
        seen.push(s.digest);
        used.add(s.digest);
        if (s.action.kind === 'cancels') {
          const cancel = s.action.request.cancel;
          const online = await buildSignedCancelAll(ctx(), {
            assetId: cancel.assetId,
            epoch: cancel.epoch,
            nonce: cancel.nonce,
          });
          expect(s.action.bodyText).toBe(online.bodyText);
        } else {
          const online = await buildSignedRevokeAgent(ctx(), { nonce: s.action.request.revocation.nonce });
          expect(s.action.bodyText).toBe(online.bodyText);
        }
      }
      expect(plan.sends).toHaveLength(round === 0 ? 3 : 2);
    }
    const exhausted = panicPlan(k, epochs, used, { revokeAgent: true });
    expect(exhausted.sends).toEqual([]);
    expect(exhausted.gaps.map((g) => g.assetId)).toEqual([7n, 9n]);
    expect(kitCoverage(k, used).revocation).toBe('used');
    const outside = panicPlan(k, new Map([[7n, 102n]]), new Set(), { revokeAgent: false });
    expect(outside.sends).toEqual([]);
    expect(outside.gaps[0]!.sentence).toContain('outside');
    expect(outside.gaps[1]!.sentence).toContain('not known');
  });

  it('refuses a kit with a changed, missing, foreign or repeated entry', async () => {
    const k = await kit();
    const json = carry(k);
    const cancels = json['cancels'] as { nonce: string; signature: Hex }[];
    const changedNonce = {
      ...json,
      cancels: cancels.map((c, i) => (i === 4 ? { ...c, nonce: (BigInt(c.nonce) + 1n).toString() } : c)),
    };
    expect(code(() => parseEmergencyKit(changedNonce))).toBe('AIRGAP_WRONG_KEY');
    expect(code(() => parseEmergencyKit({ ...json, cancels: cancels.slice(1) }))).toBe('AIRGAP_INCONSISTENT');
    expect(code(() => parseEmergencyKit({ ...json, cancels: [cancels[0], ...cancels.slice(0, -1)] }))).toBe(
      'AIRGAP_INCONSISTENT',
    );
    const foreign = await buildEmergencyKit(ctx(OTHER), {
      contracts: CONTRACTS,
      markets: MARKETS,
      perEpoch: 3,
      revokeAgent: false,
    });
    expect(code(() => parseEmergencyKit({ ...json, cancels: carry(foreign)['cancels'] }))).toBe('AIRGAP_WRONG_KEY');
    expect(code(() => parseEmergencyKit({ ...json, fingerprint: 'AAAA-AAAA-AAAA-AAAA-AAAA' }))).toBe(
      'AIRGAP_FINGERPRINT_MISMATCH',
    );
    expect(code(() => parseEmergencyKit({ ...json, revocation: null }))).toBe('AIRGAP_FINGERPRINT_MISMATCH');
    expect(code(() => parseEmergencyKit({ ...json, perEpoch: 2 }))).toBe('AIRGAP_INCONSISTENT');
  });

  it('refuses to make a kit that is empty, backwards or too large', async () => {
    const make = (markets: typeof MARKETS, perEpoch = 1) =>
      buildEmergencyKit(ctx(), { contracts: CONTRACTS, markets, perEpoch, revokeAgent: false });
    await expect(make([])).rejects.toMatchObject({ code: 'AIRGAP_INCONSISTENT' });
    await expect(make([{ ...MARKETS[0]!, fromEpoch: 5n, toEpoch: 4n }])).rejects.toMatchObject({
      code: 'AIRGAP_INCONSISTENT',
    });
    await expect(make([{ ...MARKETS[0]!, fromEpoch: 0n, toEpoch: 5000n }])).rejects.toMatchObject({
      code: 'AIRGAP_INCONSISTENT',
    });
    await expect(make(MARKETS, 9)).rejects.toMatchObject({ code: 'AIRGAP_INCONSISTENT' });
  });
});
