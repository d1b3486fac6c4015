/**
 * Trading actions shared by the ticket, the ladder, the order tables and the hotkeys: each
 * sends one intent through the bridge and reports what the core answered as a notice (notice-text.ts).
 */
import { writable } from 'svelte/store';
import type {
  BookView,
  BridgeResult,
  CloseResult,
  MarketRef,
  OpenOrderView,
  OrderQuote,
  OrderResult,
  OrderTicket,
  PositionView,
  SideName,
  SignAs,
  TimeInForceName,
} from '../../shared/bridge';
import { cancelText, closeText, orderText, replaceText, tightenedNote } from './notice-text';
import { levelForStatus, pushNotice } from './notices';
import { ownOrders } from './own-orders';
import { preparedInstead } from './airgap';
import { BridgeCallError } from './bridge';
import { refreshRisk } from './risk';
import { bridgeClient, call, errorMessage, marketName } from './terminal';

/** The ticket as the user is filling it in (price in cents and size as typed). */
export interface TicketDraft {
  side: SideName;
  price: string;
  size: string;
  timeInForce: TimeInForceName;
  signAs: SignAs;
}

export const ticket = writable<TicketDraft>({
  side: 'buy',
  price: '',
  size: '1',
  timeInForce: 'GTC',
  signAs: 'master',
});
export const sending = writable(false);

/**
 * The last order from the ticket (or a hotkey filling it) that main did not send, with its code
 * (`risk.*` for a risk limit) and sentence: the ticket shows it in full until the next order.
 */
export interface OrderRefusal {
  assetId: string;
  epoch: string;
  code: string;
  message: string;
}
export const orderRefusal = writable<OrderRefusal | null>(null);

export function ticketFor(market: MarketRef, draft: TicketDraft): OrderTicket {
  return { assetId: market.assetId, epoch: market.epoch, ...draft };
}

/**
 * Sends the order; the ticket is left as it was so a rejected order can be fixed and resent.
 * When the user wants order confirmations, main asks in its own dialog (a window cannot skip it),
 * and a "no" comes back as the core's sentence.
 */
export async function placeOrder(order: OrderTicket): Promise<boolean> {
  sending.set(true);
  orderRefusal.set(null);
  // On screen in this frame as "sending"; main's answer settles it (lib/own-orders.ts).
  const echo = ownOrders.sending(order);
  let result: OrderResult | null = null;
  try {
    result = await sendOrder(order);
    refreshRisk();
    if (!result) return false;
    const level = levelForStatus(result.status);
    const text = orderText(result) + tightenedNote(result);
    const withReason = level === 'error' && result.reason && !text.includes(result.reason) ? ` (${result.reason})` : '';
    pushNotice(level, `${marketName(order.assetId, order.epoch)}: ${text}${withReason}`, result.status);
    return level !== 'error';
  } finally {
    ownOrders.settled(echo, result);
    sending.set(false);
  }
}

/** orders.place; a failure is kept for the ticket (orderRefusal) and told as a notice. */
async function sendOrder(order: OrderTicket): Promise<BridgeResult<'orders.place'> | null> {
  const client = bridgeClient();
  if (!client) return call('orders.place', order);
  try {
    return await client.call('orders.place', order);
  } catch (error) {
    const code = error instanceof BridgeCallError ? error.code : 'unknown';
    orderRefusal.set({ assetId: order.assetId, epoch: order.epoch, code, message: errorMessage(error) });
    pushNotice('error', errorMessage(error));
    return null;
  }
}

/** Cancels one order; true when the exchange cancelled it. */
export async function cancelOrder(order: OpenOrderView): Promise<boolean> {
  const action = { kind: 'cancel' as const, assetId: order.assetId, epoch: order.epoch, orderHash: order.orderId };
  if (await preparedInstead(order.signedBy, action)) return false;
  const result = await call('orders.cancel', {
    assetId: order.assetId,
    epoch: order.epoch,
    orderId: order.orderId,
    signAs: order.signedBy,
  });
  if (!result) return false;
  pushNotice(
    levelForStatus(result.status),
    `${marketName(order.assetId, order.epoch)}: ${cancelText(result)}`,
    result.status,
  );
  return result.status === 'CANCELLED';
}

export async function cancelAll(market: MarketRef, signAs: SignAs): Promise<void> {
  if (await preparedInstead(signAs, { kind: 'cancelAll', assetId: market.assetId, epoch: market.epoch })) return;
  const result = await call('orders.cancelAll', { assetId: market.assetId, epoch: market.epoch, signAs });
  if (!result) return;
  const none = result.status === 'CANCELLED' && result.orderIds.length === 0;
  pushNotice(
    none ? 'info' : levelForStatus(result.status),
    `${marketName(market.assetId, market.epoch)}: ${none ? 'no open orders to cancel' : cancelText(result)}`,
    result.status,
  );
}

export async function replaceOrder(order: OpenOrderView, price: string, size: string): Promise<boolean> {
  const { assetId, epoch, side, timeInForce } = order;
  const replacement = { assetId, epoch, cancelOrderHash: order.orderId, side, price, size, timeInForce };
  if (await preparedInstead(order.signedBy, { kind: 'cancelReplace', ...replacement })) return true;
  const result = await call('orders.replace', {
    assetId: order.assetId,
    epoch: order.epoch,
    orderId: order.orderId,
    price,
    size,
    signAs: order.signedBy,
  });
  refreshRisk();
  if (!result) return false;
  const ok = result.status === 'SUCCESS';
  pushNotice(
    ok ? 'success' : 'error',
    `${marketName(order.assetId, order.epoch)}: ${replaceText(result)}`,
    result.status,
  );
  return ok;
}

/** Level of a close's notice: closed is good news, anything left open a warning, a refusal an error. */
export function closeLevel(status: CloseResult['status']): 'success' | 'info' | 'warning' | 'error' {
  switch (status) {
    case 'CLOSED':
      return 'success';
    case 'NOTHING_TO_CLOSE':
      return 'info';
    case 'REJECTED':
      return 'error';
    default:
      return 'warning';
  }
}

/**
 * Closes the position in a market (Close position button, the row's Close, Shift+F): main limits
 * it to the live best price ± the maximum slippage and never lets it open the other side. The
 * notice says what filled, at what average and worst price, and what is left, or that there was
 * nothing to close.
 */
export async function flatten(market: MarketRef, signAs: SignAs): Promise<CloseResult | null> {
  const result = await call('orders.flatten', { assetId: market.assetId, epoch: market.epoch, signAs });
  refreshRisk();
  // A close that traded makes the ticket's last refusal old news: it no longer stays beside the ticket.
  if (result && (result.status === 'CLOSED' || result.status === 'PARTIALLY_CLOSED')) {
    orderRefusal.update((r) => (r && r.assetId === market.assetId && r.epoch === market.epoch ? null : r));
  }
  if (result)
    pushNotice(
      closeLevel(result.status),
      closeText(result, marketName(market.assetId, market.epoch)) +
        tightenedNote({ ...result, price: '' }, result.limitPrice),
      result.status,
    );
  return result;
}

/**
 * What the closing part of a quoted order makes or loses: its proceeds less the cost basis it
 * removes from the position (docs/position-accounting.md: the margin pro rata, rounded down; the
 * whole of it when the whole position closes). A trader reads the ticket's close as profit or loss,
 * so proceeds alone ("+$2.40" on a sale that lost $1.28) misled. Null without a closing part, or
 * when the position shown does not hold what the quote closes (an account update on its way).
 */
export function closingPnl(
  quote: Pick<OrderQuote, 'closing' | 'proceeds'>,
  position: Pick<PositionView, 'size' | 'margin'> | null | undefined,
): { pnl: bigint; proceeds: bigint; basis: bigint } | null {
  if (quote.closing === undefined || quote.proceeds === undefined || !position) return null;
  const size = BigInt(position.size);
  const held = size < 0n ? -size : size;
  const closing = BigInt(quote.closing);
  if (held === 0n || closing === 0n || closing > held) return null;
  const margin = BigInt(position.margin);
  const basis = closing === held ? margin : (margin * closing) / held;
  const proceeds = BigInt(quote.proceeds);
  return { pnl: proceeds - basis, proceeds, basis };
}

/** Why order entry is off for this book, or null when it may trade. */
export function bookBlockReason(book: BookView | null): string | null {
  if (!book) return 'Waiting for the order book.';
  if (book.health.state === 'live') return null;
  const state = book.health.state === 'down' ? 'down' : book.health.state === 'stale' ? 'stale' : 'resyncing';
  return `Book ${state}: ${book.health.reason || 'no recent updates'}. Order entry is paused.`;
}
