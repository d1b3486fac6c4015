/**
 * Where the session's account figures (account-figures.ts) come from: the desk's account and the
 * board's prices. Apart from session-view.ts, which reads a whole session, so the session can build
 * its figures without an import circle.
 */
import { PROTOCOL_SCALE } from '../../../shared/protocol';
import type { AccountDesk } from '../session/account-desk';
import { FAIR_KEPT_MS, type MarketBoard } from '../session/market-board';
import type { FiguresSource } from './account-figures';

/** Renewed ahead of time when older than this, so an order rarely finds a fair value to recompute. */
export const FAIR_AHEAD_MS = FAIR_KEPT_MS / 2;
/**
 * After a read that renewed ahead of time, how long each fair value is still answered unchanged: one
 * renewed then is at most FAIR_AHEAD_MS old and is kept for FAIR_KEPT_MS.
 */
export const FAIR_FRESH_MS = FAIR_KEPT_MS - FAIR_AHEAD_MS;

/** What the session's account figures (account-figures.ts) are made of: the desk's account and the board's prices. */
export function figuresSourceOf(
  desk: Pick<AccountDesk, 'account' | 'currentEpoch'>,
  board: MarketBoard,
): FiguresSource {
  return {
    account: () => desk.account,
    fair: (a, e, ahead, key) => {
      const f = board.fairValue(a, e, ahead ? FAIR_AHEAD_MS : FAIR_KEPT_MS, key);
      return f.known ? f.price : null;
    },
    freshness: { stamp: () => board.valuation, freshMs: FAIR_FRESH_MS, now: () => board.now() },
    ended: (a, e) => {
      const current = desk.currentEpoch(a);
      if (current === undefined || e >= current) return null;
      const r = board.resolution(a, e);
      return { resolvedFair: r ? (r.upWon ? PROTOCOL_SCALE : 0n) : null };
    },
  };
}
