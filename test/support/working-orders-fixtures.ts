/**
 * The working-order state machines' test world (src/main/core/working-orders/*.test.ts): one market
 * (asset 7, epoch 3, BTC 1m), an account long 10, fair 51¢ under a 50¢ / 52¢ book, and the drafts the
 * tests build their orders from. One copy, so the machines' tests agree on what "the market" is.
 */
import type { WorkingOrderDraft } from '../../src/shared/bridge';
import { recordOf, type DraftFacts } from '../../src/main/core/working-orders/drafts';
import type { Effect, MarketLook, WorkingOrder } from '../../src/main/core/working-orders/types';

export const C = 10_000n; // a cent
export const N = 1_000_000n; // a contract
export const D = 1_000_000n; // a dollar of the oracle
export const STRIKE = 65_000n * D;
export const T0 = Date.now();
export const EXPIRY = T0 + 60_000;
export const M = { assetId: '7', epoch: '3' };

export const facts = (over: Partial<DraftFacts> = {}): DraftFacts => ({
  id: 'wo-1',
  now: T0,
  deployment: 'devnet',
  account: `0x${'a'.repeat(40)}`,
  inventory: 10n * N,
  strike: STRIKE,
  slippage: 2n * C,
  ...over,
});

/** A book level: `size` contracts at `price`. */
export const q = (price: bigint, size = 5n * N) => ({ price, size });

/** The market a second after T0: bid 50¢, ask 52¢, fair 51¢, the oracle at the strike, long 10. */
export function look(over: Partial<MarketLook> = {}): MarketLook {
  return {
    market: 'BTC 1m #3',
    epoch: 3n,
    now: T0 + 1_000,
    expiry: EXPIRY,
    strike: STRIKE,
    book: { bid: q(50n * C), ask: q(52n * C) },
    bookNote: null,
    oracle: STRIKE,
    oracleNote: null,
    inventory: 10n * N,
    fair: 51n * C,
    ...over,
  };
}

export const make = (d: WorkingOrderDraft, f: Partial<DraftFacts> = {}): WorkingOrder => recordOf(d, facts(f));

/** The exit orders among a machine's effects. */
export const sends = (effects: Effect[]) => effects.filter((e) => e.type === 'send-exit');

/** A roll bidding 5 at fair − 2.5¢ and offering 5 at a fixed 70¢. */
export const rollDraft = (more: Partial<Extract<WorkingOrderDraft, { kind: 'roll' }>> = {}): WorkingOrderDraft => ({
  kind: 'roll',
  assetId: '7',
  signAs: 'master',
  quotes: [
    { side: 'buy', size: '5', price: { from: 'fair', offset: '-2.5' } },
    { side: 'sell', size: '5', price: { from: 'fixed', price: '70' } },
  ],
  ...more,
});
