/**
 * Signing and sending one order, shared by orders.place, orders.replace, orders.flatten and working
 * orders (a roll's re-quote is a cancel-replace too): the
 * order gate (risk/order-gate.ts) for the selected account, the signature by the master or its
 * agent, the order history entry, the taker fills recorded at their prices, and the result the
 * window words.
 */
import type { FillView, OrderResult, SignAs, TimeInForceName } from '../../../shared/bridge';
import type { Address, Hex } from '../../../shared/protocol';
import type { CancelReplaceResponse, NewOrderResponse, OrderOutcome } from '../../../client';
import { rejectReasonSentence } from '../../../shared/exchange-text';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import type { ParsedTicket } from '../trading-math/order-math';
import type { OrderPath, Passed } from '../risk/order-gate';
import { sessionGateView } from '../risk/session-view';
import type { TradingSession } from '../session/session';

export interface GateSpec {
  path: Extract<OrderPath, 'place' | 'edit' | 'close' | 'working-order'>;
  signAs: SignAs;
  assetId: bigint;
  epoch: bigint;
  ticket: ParsedTicket;
  timeInForce: TimeInForceName;
  replaces?: string;
  /** A marketable order main may tighten to the guards' edge (order-gate.ts GateOrder.tighten). */
  tighten?: { best: bigint | null };
  /** Our own sentences for the dialog (a working order says what fired it). */
  notes?: readonly string[];
}

/**
 * The order gate for an order of the selected account signed here: the account is fixed from the
 * selection (the master, or its agent as `signAs` asks) before anything is asked.
 */
export function passGate(ctx: CoreContext, session: TradingSession, o: GateSpec): Promise<Passed> {
  // Refuses first, in words, a missing account or agent and a watch-only master.
  session.actor(o.signAs);
  const { master, agent } = session.desk.selection;
  const signer = o.signAs === 'agent' ? agent : master;
  if (!master || !signer) throw new BridgeFailure('account.none_selected', 'Choose the account to trade with first.');
  return ctx.orderGate.pass(
    {
      path: o.path,
      signer: signer as Address,
      master: master as Address,
      role: o.signAs,
      assetId: o.assetId,
      epoch: o.epoch,
      sell: o.ticket.sell,
      price: o.ticket.price,
      size: o.ticket.size,
      timeInForce: o.timeInForce,
      ...(o.replaces === undefined ? {} : { replaces: o.replaces }),
      ...(o.tighten ? { tighten: o.tighten } : {}),
      ...(o.notes ? { notes: o.notes } : {}),
      signsHere: true,
    },
    sessionGateView(session),
  );
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

/** A cancel-replace of one resting order (orders.replace, a roll's re-quote), after the gate passed it. */
export interface Replacement extends Placement {
  /** The resting order it cancels. */
  replaces: Hex;
}

/**
 * Signs and sends a cancel-replace, and records its replacement like any order sent: the order history
 * entry (with the exchange's reason when rejected) and the taker fills of one that crossed the book.
 * Null when the exchange had already seen it (a resend): nothing is known of the replacement then.
 * The caller says what became of the order it replaced (ordersCancelled, in its own words) and reads
 * the account again.
 */
export async function sendReplace(
  session: TradingSession,
  p: Replacement,
): Promise<{ response: CancelReplaceResponse; fills: FillView[] } | null> {
  const actor = session.actor(p.signAs);
  const input = {
    assetId: p.assetId,
    epoch: p.epoch,
    cancelOrderHash: p.replaces,
    side: p.ticket.sell ? ('sell' as const) : ('buy' as const),
    price: p.ticket.price,
    size: p.ticket.size,
    timeInForce: p.timeInForce,
  };
  const outcome = actor.master
    ? await actor.client.cancelReplaceAgentOrder({ ...input, master: actor.master })
    : await actor.client.cancelReplaceOrder(input);
  if (outcome.delivery === 'duplicate') return null;
  const r = outcome.response;
  const rep = r.replacement;
  if (!rep) return { response: r, fills: [] };
  // A replacement that crossed the book filled as taker, like any new order.
  const fills =
    rep.filled > 0n
      ? await session.desk.recordTakerFills({
          assetId: p.assetId,
          epoch: p.epoch,
          orderId: rep.orderId,
          side: input.side,
          limit: p.ticket.price,
          filled: rep.filled,
        })
      : [];
  session.desk.orderSent({
    assetId: p.assetId,
    epoch: p.epoch,
    orderId: rep.orderId,
    side: input.side,
    price: p.ticket.price,
    size: p.ticket.size,
    timeInForce: p.timeInForce,
    signedBy: actor.signedBy,
    status: rep.status,
    filled: rep.filled,
    reason: rep.status === 'REJECTED' ? rejectReasonSentence(rep.reason) : '',
  });
  return { response: r, fills };
}
