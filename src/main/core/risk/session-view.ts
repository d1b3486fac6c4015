/**
 * The order gate's view of a running session: fair values from the market board, the market's
 * name, and the selected account's position, open orders and equity at fair value from the account
 * desk. Only the selected account is read: its figures are the ones on screen, kept live by the feed.
 */
import type { AccountState } from '../../../client';
import type { TradingSession } from '../session/session';
import { marketLabel } from '../session/market-name';
import { figuresSourceOf } from './figures-source';
import { equityAtFair, type HeldPosition } from './equity';
import type { GateView } from './order-gate';

function positionsOf(account: AccountState | null): HeldPosition[] {
  const out: HeldPosition[] = [];
  for (const p of account?.positions.values() ?? []) {
    if (p && (p.inventory !== 0n || p.margin !== 0n))
      out.push({ assetId: p.assetId, epoch: p.epoch, inventory: p.inventory, margin: p.margin });
  }
  return out;
}

/** Whether `master` is the selected account (the only one whose figures the session keeps). */
function isSelected(session: TradingSession, master: string): boolean {
  const selected = session.desk.selection.master;
  return !!selected && (selected === master || selected.toLowerCase() === master.toLowerCase());
}

/** Who the session would sign for now and under what: compared before and after the order dialog. */
export function sessionIdentity(session: TradingSession): string {
  const { master, agent } = session.desk.selection;
  return `${master}|${agent}|${session.signers.pinKey()}`;
}

/** The selected account's equity at fair value, recomputed in full, or null before its balance is read. */
export function sessionEquity(session: TradingSession): bigint | null {
  return accountEquity(session, session.desk.account);
}

/** An account's equity at fair value by this session's prices (the selected one, or one left watched), null before its balance is read. */
export function accountEquity(session: TradingSession, account: AccountState | null): bigint | null {
  const balance = account?.balance;
  if (!account || !balance) return null;
  const source = figuresSourceOf({ account, currentEpoch: (a) => session.desk.currentEpoch(a) }, session.board);
  return equityAtFair({
    available: balance.balance,
    locked: balance.pending,
    positions: positionsOf(account),
    fair: source.fair,
    ended: source.ended,
  });
}

export function sessionGateView(
  session: TradingSession,
  identity: () => string = () => sessionIdentity(session),
): GateView {
  return {
    fair: (a, e) => session.board.fairValue(a, e),
    marketName: (a, e) => {
      try {
        return marketLabel(session.board.market(a).symbol, a, e);
      } catch {
        return `asset ${a} epoch ${e}`;
      }
    },
    deploymentName: session.deployment.name,
    identity,
    listed: (assetId) => session.isListed(assetId),
    account: (master, assetId, epoch, sell, replaces) => {
      if (!isSelected(session, master)) return null;
      // Kept up to date by the session between orders; checked against the account and prices here.
      if (session.desk.account?.balance) return session.figures.forOrder(assetId, epoch, sell, replaces);
      // Unreadable is "not checked here": the gate then asks the person rather than guess.
      return session.desk
        .refresh(epoch, assetId)
        .catch(() => undefined)
        .then(() => session.figures.forOrder(assetId, epoch, sell, replaces));
    },
    openIfRead: (master) =>
      !session.stopped && isSelected(session, master) && session.desk.account?.balance ? session.figures.open() : null,
    accountIfRead: (master, assetId, epoch, sell, replaces) =>
      !session.stopped && isSelected(session, master) && session.desk.account?.balance
        ? session.figures.forOrder(assetId, epoch, sell, replaces)
        : null,
  };
}
