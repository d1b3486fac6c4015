/** orders.*: quote, place, cancel, cancel all, replace and flatten, signed by the master or its agent. */
import type { CancelResult, OrderResult, OrderTicket } from '../../../shared/bridge';
import { formatDollars, type Hex } from '../../../shared/protocol';
import type { CancelOutcome } from '../../../client';
import { BridgeFailure, type AreaHandlers } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { TradingHost } from '../session/host';
import { parseTicket, quoteOf, type ParsedTicket } from '../trading-math/order-math';
import { shortfallOf, type Shortfall } from '../trading-math/order-funds';
import type { TradingSession } from '../session/session';
import { closePosition } from './close-position';
import { passGate, resultOf, send, sendReplace, type Placement } from './order-sending';

/**
 * The gate, then the signature and the send; a clearance the send did not use is withdrawn. A
 * marketable order may pass at a tightened limit: it is sent at that price, and the result says so.
 */
async function gateAndSend(
  ctx: CoreContext,
  session: TradingSession,
  p: Placement,
  tighten?: { best: bigint | null },
): Promise<OrderResult> {
  const passed = await passGate(ctx, session, { path: 'place', ...p, ...(tighten ? { tighten } : {}) });
  const sent: Placement = passed.price === p.ticket.price ? p : { ...p, ticket: { ...p.ticket, price: passed.price } };
  try {
    const { result } = await send(session, sent);
    return passed.tightened
      ? { ...result, tightenedFrom: passed.tightened.from.toString(), tightenedBy: passed.tightened.by }
      : result;
  } finally {
    passed.release();
  }
}

/** The selected account's position in a market as last read (0 when none or not connected). */
function inventoryNow(trading: TradingHost, assetId: bigint, epoch: bigint): bigint {
  try {
    return trading.session().desk.account?.inventory(assetId, epoch) ?? 0n;
  } catch {
    return 0n;
  }
}

function shortfallNow(trading: TradingHost, assetId: bigint, epoch: bigint, t: ParsedTicket): Shortfall | null {
  let session: TradingSession;
  try {
    session = trading.session();
  } catch {
    return null;
  }
  const account = session.desk.account;
  return shortfallOf(t, account?.balance?.balance ?? null, account?.inventory(assetId, epoch) ?? 0n);
}

/**
 * Refuses, before any dialog or signature, an order whose collateral the free balance does not
 * cover. A stale balance never refuses: it is read again first.
 */
async function refuseUncovered(
  session: TradingSession,
  assetId: bigint,
  epoch: bigint,
  t: ParsedTicket,
): Promise<void> {
  const check = (): Shortfall | null =>
    shortfallOf(
      t,
      session.desk.account?.balance?.balance ?? null,
      session.desk.account?.inventory(assetId, epoch) ?? 0n,
    );
  if (!check()) return;
  await session.desk.refresh(epoch, assetId);
  const short = check();
  if (!short) return;
  throw new BridgeFailure(
    'orders.insufficient_balance',
    `Not sent: this order needs ${formatDollars(short.need)} of collateral and ${formatDollars(short.free)} is free (${formatDollars(short.short)} short). Deposit on the Funds screen, or make the order smaller.`,
  );
}

function cancelResultOf(outcome: CancelOutcome): CancelResult {
  return outcome.delivery === 'answered'
    ? { status: outcome.response.status, orderIds: outcome.response.orderIds }
    : { status: 'CANCELLED', orderIds: [] };
}

export function ordersHandlers(ctx: CoreContext, trading: TradingHost): AreaHandlers<'orders'> {
  return {
    'orders.quote': (ticket: OrderTicket) => {
      const t = parseTicket(ticket);
      const assetId = BigInt(ticket.assetId);
      const epoch = BigInt(ticket.epoch);
      const short = shortfallNow(trading, assetId, epoch, t);
      const q = quoteOf(t, inventoryNow(trading, assetId, epoch));
      return short ? { ...q, shortfall: short.short.toString() } : q;
    },

    'orders.place': async (ticket) => {
      const t = parseTicket(ticket);
      const session = await trading.connected();
      const assetId = BigInt(ticket.assetId);
      const epoch = BigInt(ticket.epoch);
      // Why nothing can be signed (a pin to confirm, another chain) comes before what the order lacks.
      session.signers.assertCanSign();
      // Who signs is known before anything is asked: a watch-only master is refused before a dialog.
      session.actor(ticket.signAs);
      await refuseUncovered(session, assetId, epoch, t);
      // A hotkey's marketable order may be tightened to the guards' edge, if that still reaches the book.
      const top = ticket.marketable ? session.board.topOfBook(assetId, epoch) : null;
      return gateAndSend(
        ctx,
        session,
        { assetId, epoch, ticket: t, timeInForce: ticket.timeInForce, signAs: ticket.signAs },
        top ? { best: t.sell ? top.bid : top.ask } : undefined,
      );
    },

    'orders.cancel': async ({ assetId, epoch, orderId, signAs }) => {
      const session = await trading.connected();
      const actor = session.actor(signAs);
      const input = { assetId: BigInt(assetId), epoch: BigInt(epoch), orderHash: orderId as Hex };
      const outcome = actor.master
        ? await actor.client.cancelAgentOrder({ ...input, master: actor.master })
        : await actor.client.cancelOrder(input);
      await session.desk.refresh();
      const result = cancelResultOf(outcome);
      if (result.status === 'CANCELLED')
        session.desk.ordersCancelled(result.orderIds.length > 0 ? result.orderIds : [orderId]);
      return result;
    },

    'orders.cancelAll': async ({ assetId, epoch, signAs }) => {
      const session = await trading.connected();
      const actor = session.actor(signAs);
      const input = { assetId: BigInt(assetId), epoch: BigInt(epoch) };
      const outcome = actor.master
        ? await actor.client.cancelAllAgent({ ...input, master: actor.master })
        : await actor.client.cancelAll(input);
      await session.desk.refresh();
      const result = cancelResultOf(outcome);
      if (result.status === 'CANCELLED') session.desk.ordersCancelled(result.orderIds, 'cancelled with cancel all');
      return result;
    },

    'orders.replace': async ({ assetId, epoch, orderId, price, size, signAs }) => {
      const session = await trading.connected();
      const a = BigInt(assetId);
      const e = BigInt(epoch);
      const resting = session.desk.account?.restingOrders(a, e);
      const sell = resting?.sells.some((o) => o.id.toLowerCase() === orderId.toLowerCase());
      const buy = resting?.buys.some((o) => o.id.toLowerCase() === orderId.toLowerCase());
      if (!sell && !buy)
        throw new BridgeFailure('orders.not_found', 'That order is no longer open, so there is nothing to replace.');
      const t = parseTicket({ side: sell ? 'sell' : 'buy', price, size });
      const timeInForce = session.desk.timeInForceOf(orderId);
      session.signers.assertCanSign();
      // An edit is a new order: the same gate as a placement, the order it replaces left out of the open ones.
      const passed = await passGate(ctx, session, {
        path: 'edit',
        signAs,
        assetId: a,
        epoch: e,
        ticket: t,
        timeInForce,
        replaces: orderId,
      });
      let sent;
      try {
        sent = await sendReplace(session, {
          signAs,
          assetId: a,
          epoch: e,
          ticket: t,
          timeInForce,
          replaces: orderId as Hex,
        });
      } finally {
        passed.release();
      }
      await session.desk.refresh();
      if (!sent) return { status: 'SUCCESS' as const, replacement: null, duplicate: true };
      const r = sent.response;
      const replacement = r.replacement ? resultOf(r.replacement, t, sent.fills) : null;
      if (r.status !== 'CANCEL_FAILED') session.desk.ordersCancelled([orderId], 'replaced by an edit');
      return { status: r.status, replacement, duplicate: false };
    },

    'orders.history': () => trading.session().desk.history(),

    'orders.flatten': async ({ assetId, epoch, signAs }) =>
      closePosition(ctx, await trading.connected(), BigInt(assetId), BigInt(epoch), signAs),
  };
}
