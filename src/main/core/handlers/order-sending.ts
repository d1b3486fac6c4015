/**
 * Signing and sending one order, shared by orders.place and orders.flatten: main's confirmation
 * dialog when the setting asks for one, the signature by the master or its agent, the order history
 * entry, the taker fills recorded at their prices, and the result the window words.
 */
import type { FillView, OrderResult, SignAs, TimeInForceName } from '../../../shared/bridge';
import { formatCents, formatDollars, formatSize } from '../../../shared/protocol';
import type { NewOrderResponse, OrderOutcome } from '../../../client';
import { rejectReasonSentence } from '../../../shared/exchange-text';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { quoteOf, type ParsedTicket } from '../trading-math/order-math';
import type { TradingSession } from '../session/session';

function sideWord(sell: boolean): string {
  return sell ? 'Sell' : 'Buy';
}

export async function confirmOrder(
  ctx: CoreContext,
  session: TradingSession,
  assetId: bigint,
  epoch: bigint,
  t: ParsedTicket,
  tif: TimeInForceName,
): Promise<void> {
  // Read in place: this runs on every order (a whole-settings copy cost the hotkey path).
  if (!ctx.settings.read((s) => s.confirmations.orders)) return;
  const symbol = session.board.market(assetId).symbol;
  const q = quoteOf(t, session.desk.account?.inventory(assetId, epoch) ?? 0n);
  const closes = q.closing
    ? `It closes ${formatSize(BigInt(q.closing))} of the position for ${formatDollars(BigInt(q.proceeds ?? '0'))}. `
    : '';
  const yes = await ctx.dialogs.confirm({
    title: 'Place order',
    message: `${sideWord(t.sell)} ${formatSize(t.size)} ${symbol} Up at ${formatCents(t.price)} (${tif}, epoch ${epoch})?`,
    detail: `${closes}It costs ${formatDollars(BigInt(q.cost))} and pays ${formatDollars(BigInt(q.payoutIfRight))} if right; the most it can lose is ${formatDollars(BigInt(q.maxLoss))}.`,
    confirmLabel: `${sideWord(t.sell)} ${formatSize(t.size)}`,
  });
  if (!yes) throw new BridgeFailure('orders.not_confirmed', 'The order was not confirmed, so nothing was sent.');
}

/** A resend that the exchange had already processed: what we can say without its original answer. */
function duplicateResponse(outcome: Extract<OrderOutcome, { delivery: 'duplicate' }>, size: bigint): NewOrderResponse {
  return {
    orderId: outcome.orderHash,
    status: outcome.resting ? 'ACCEPTED' : 'FILLED',
    reason: 'already processed',
    filled: outcome.resting ? 0n : size,
    remaining: outcome.resting ? size : 0n,
    cancelled: 0n,
  };
}

/** The size-weighted average price of an order's taker fills; "at or better than" when any is only its limit. */
function fillPriceOf(fills: readonly FillView[]): { fillPrice: string | null; fillPriceIsLimit: boolean } {
  const size = fills.reduce((sum, f) => sum + BigInt(f.size), 0n);
  if (size === 0n) return { fillPrice: null, fillPriceIsLimit: false };
  const value = fills.reduce((sum, f) => sum + BigInt(f.price) * BigInt(f.size), 0n);
  return { fillPrice: (value / size).toString(), fillPriceIsLimit: fills.some((f) => f.priceIsLimit === true) };
}

/** The window's view of the exchange's answer to one order. */
export function resultOf(r: NewOrderResponse, t: ParsedTicket, fills: readonly FillView[] = []): OrderResult {
  return {
    orderId: r.orderId,
    status: r.status,
    reason: r.reason,
    side: t.sell ? 'sell' : 'buy',
    price: t.price.toString(),
    filled: r.filled.toString(),
    remaining: r.remaining.toString(),
    cancelled: r.cancelled.toString(),
    ...fillPriceOf(fills),
  };
}

export interface Placement {
  assetId: bigint;
  epoch: bigint;
  ticket: ParsedTicket;
  timeInForce: TimeInForceName;
  signAs: SignAs;
}

/** Signs and sends one order; returns its result and the taker fills recorded for it. */
export async function send(session: TradingSession, p: Placement): Promise<{ result: OrderResult; fills: FillView[] }> {
  const actor = session.actor(p.signAs);
  const input = {
    assetId: p.assetId,
    epoch: p.epoch,
    side: p.ticket.sell ? ('sell' as const) : ('buy' as const),
    price: p.ticket.price,
    size: p.ticket.size,
    timeInForce: p.timeInForce,
  };
  const outcome = actor.master
    ? await actor.client.placeAgentOrder({ ...input, master: actor.master })
    : await actor.client.placeOrder(input);
  const response = outcome.delivery === 'answered' ? outcome.response : duplicateResponse(outcome, p.ticket.size);
  session.desk.orderSent({
    ...input,
    orderId: outcome.orderHash,
    signedBy: actor.signedBy,
    status: response.status,
    filled: response.filled,
    reason: historyReason(response, p.timeInForce),
  });
  // At the prices it traded at where the deployment reports them, else at its limit, flagged.
  const fills =
    response.filled > 0n
      ? await session.desk.recordTakerFills({
          assetId: p.assetId,
          epoch: p.epoch,
          orderId: outcome.orderHash,
          side: input.side,
          limit: p.ticket.price,
          filled: response.filled,
        })
      : [];
  await session.desk.refresh();
  return { result: resultOf(response, p.ticket, fills), fills };
}

/** Why an order ended without filling, in words, for the order history. */
function historyReason(r: NewOrderResponse, tif: TimeInForceName): string {
  if (r.status === 'REJECTED') return rejectReasonSentence(r.reason);
  if (r.status === 'CANCELLED')
    return `the unfilled rest of a${tif === 'IOC' ? 'n IOC' : ` ${tif}`} order${r.reason ? ` (${r.reason})` : ''}`;
  return '';
}
