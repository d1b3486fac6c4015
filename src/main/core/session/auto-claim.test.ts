import { describe, expect, it } from 'vitest';
import type { ClaimResult } from '../../../shared/bridge';
import { AutoClaimer, type AutoClaimOptions } from './auto-claim';

function rig(over: Partial<AutoClaimOptions> & { amounts?: bigint[]; results?: (ClaimResult | Error)[] } = {}) {
  const notices: string[] = [];
  const claims: string[] = [];
  const amounts = [...(over.amounts ?? [3_000_000n])];
  const results = [...(over.results ?? [])];
  const claimer = new AutoClaimer({
    enabled: () => true,
    claimable: () => Promise.resolve(amounts.length > 1 ? amounts.shift()! : amounts[0]!),
    claim: (a, e) => {
      claims.push(`${a}:${e}`);
      const next = results.shift() ?? {
        assetId: a.toString(),
        epoch: e.toString(),
        status: 'CLAIMED',
        amount: '3000000',
        summary: `Claimed $3.00 from BTC 1m #${e}`,
      };
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    notify: (_level, message) => notices.push(message),
    sleep: () => Promise.resolve(),
    ...over,
  });
  return { claimer, notices, claims };
}

describe('AutoClaimer', () => {
  it('claims a resolved epoch with something in it, with one notice', async () => {
    const { claimer, notices, claims } = rig();
    await claimer.onResolved(7n, 3n);
    expect(claims).toEqual(['7:3']);
    expect(notices).toEqual(['Auto-claim: Claimed $3.00 from BTC 1m #3.']);
  });
  it('does nothing when off or when there is nothing to claim', async () => {
    const off = rig({ enabled: () => false });
    await off.claimer.onResolved(7n, 3n);
    const empty = rig({ amounts: [0n] });
    await empty.claimer.onResolved(7n, 3n);
    expect([...off.claims, ...off.notices, ...empty.claims, ...empty.notices]).toEqual([]);
  });
  it('waits for the claimable amount to appear, within its attempts', async () => {
    const { claimer, claims, notices } = rig({ amounts: [0n, 0n, 2_000_000n] });
    await claimer.onResolved(7n, 4n);
    expect(claims).toEqual(['7:4']);
    expect(notices).toHaveLength(1);
  });
  it('retries a failed claim a bounded number of times, then says so once', async () => {
    const { claimer, claims, notices } = rig({
      results: [
        new Error('the exchange did not answer'),
        new Error('the exchange did not answer'),
        new Error('the exchange did not answer'),
      ],
    });
    await claimer.onResolved(7n, 5n);
    expect(claims).toHaveLength(3);
    expect(notices).toEqual([
      'Auto-claim gave up after 3 tries: the exchange did not answer. Claim it on the Funds screen.',
    ]);
  });
});
