/**
 * The order gate's view of a running session: fair values from the market board, the market's
 * name, and the selected account's position, open orders and equity at fair value from the account
 * desk. Only the selected account is read: its figures are the ones on screen, kept live by the feed.
 */
import { PROTOCOL_SCALE } from '../../../shared/protocol';
import type { TradingSession } from '../session/session';
import { marketLabel } from '../session/market-name';
import { equityAtFair, type HeldPosition } from './equity';
import type { AccountSnapshot, GateView } from './order-gate';
import type { FairOf, RestingOrder } from './guards';

/** Resting orders of the account in every market, without the one an edit replaces. */
function restingOf(session: TradingSession, replaces: string | undefined): RestingOrder[] {
  const out: RestingOrder[] = [];
  const skip = replaces?.toLowerCase();
  for (const o of session.desk.account?.orders.values() ?? []) {
    for (const [list, sell] of [
      [o.buys, false],
      [o.sells, true],
    ] as const) {
      for (const r of list) {
        if (r.id.toLowerCase() === skip) continue;
        out.push({ assetId: o.assetId, epoch: o.epoch, sell, price: r.price, size: r.size });
      }
    }
  }
  return out;
}

function positionsOf(session: TradingSession): HeldPosition[] {
  const out: HeldPosition[] = [];
  for (const p of session.desk.account?.positions.values() ?? []) {
    if (p && (p.inventory !== 0n || p.margin !== 0n))
      out.push({ assetId: p.assetId, epoch: p.epoch, inventory: p.inventory, margin: p.margin });
  }
  return out;
}

/** Who the session would sign for now and under what: compared before and after the order dialog. */
export function sessionIdentity(session: TradingSession): string {
  const { master, agent } = session.desk.selection;
  return `${master}|${agent}|${session.signers.pinKey()}`;
}

/** The selected account's equity at fair value, or null before its balance is read. */
export function sessionEquity(session: TradingSession, fairOf?: FairOf): bigint | null {
  const balance = session.desk.account?.balance;
  if (!balance) return null;
  return equityAtFair({
    available: balance.balance,
    locked: balance.pending,
    positions: positionsOf(session),
    fair:
      fairOf ??
      ((a, e) => {
        const f = session.board.fairValue(a, e);
        return f.known ? f.price : null;
      }),
    ended: (a, e) => {
      const current = session.desk.currentEpoch(a);
      if (current === undefined || e >= current) return null;
      const r = session.board.resolution(a, e);
      return { resolvedFair: r ? (r.upWon ? PROTOCOL_SCALE : 0n) : null };
    },
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
    account: (master, assetId, epoch, replaces, fairOf) => {
      if (session.desk.selection.master?.toLowerCase() !== master.toLowerCase()) return null;
      const snapshot = (): AccountSnapshot | null => {
        const account = session.desk.account;
        const equity = sessionEquity(session, fairOf);
        if (!account || equity === null) return null;
        return { inventory: account.inventory(assetId, epoch), resting: restingOf(session, replaces), equity };
      };
      if (session.desk.account?.balance) return snapshot();
      // Unreadable is "not checked here": the gate then asks the person rather than guess.
      return session.desk
        .refresh(epoch, assetId)
        .catch(() => undefined)
        .then(snapshot);
    },
  };
}
