/**
 * What a working order sends, through the same order gate and signing path as the window's own
 * orders (handlers/order-sending.ts), on the path named "working order" in main's dialog and the
 * logs. An exit is reduce-only: its size is clipped to the position right before signing, so it can
 * only shrink it (and goes when the day's loss budget is spent, as the gate allows a reducing order).
 */
import type { Hex } from '../../../shared/protocol';
import { BridgeFailure } from '../bridge-runtime';
import type { CoreContext } from '../context';
import { toBridgeFailure } from '../errors';
import { passGate, send, sendReplace } from '../handlers/order-sending';
import type { Passed } from '../risk/order-gate';
import type { TradingSession } from '../session/session';
import type { ParsedTicket as Ticket } from '../trading-math/order-math';
import { rejectReasonSentence } from '../../../shared/exchange-text';
import type { ExitOutcome, PlacedOutcome, QuoteOutcome, RequoteOutcome } from './engine';
import { closable } from './lifecycle';
import type { Effect, Refusal, WorkingOrder } from './types';

type SendExit = Extract<Effect, { type: 'send-exit' }>;

function refusalOf(error: unknown): Refusal {
  const f = error instanceof BridgeFailure ? error : toBridgeFailure(error);
  if (f) return { code: f.code, message: f.message };
  return { code: 'working.send_failed', message: 'The exchange did not answer; nothing more is known of this order.' };
}

/** The order gate for one of a working order's orders, on the path main's dialog names "Working order". */
function gate(
  ctx: CoreContext,
  session: TradingSession,
  o: WorkingOrder,
  ticket: Ticket,
  timeInForce: 'GTC' | 'IOC',
  notes: readonly string[],
  tighten?: { best: bigint | null },
): Promise<Passed> {
  session.signers.assertCanSign();
  return passGate(ctx, session, {
    path: 'working-order',
    signAs: o.signAs,
    assetId: o.assetId,
    epoch: o.epoch,
    ticket,
    timeInForce,
    ...(tighten ? { tighten } : {}),
    notes,
  });
}

const sendFor = (session: TradingSession, o: WorkingOrder, ticket: Ticket, timeInForce: 'GTC' | 'IOC') =>
  send(session, { assetId: o.assetId, epoch: o.epoch, ticket, timeInForce, signAs: o.signAs });

/** What an exit's IOC did, with its average fill price for the notice. */
export interface ExitSent {
  outcome: Omit<ExitOutcome, 'now'>;
  /** The size-weighted average price of its taker fills (OrderResult.fillPrice); null when none. */
  fillPrice: string | null;
  /** The limit sent (the gate may have tightened it). */
  limit: bigint;
}

/**
 * Exits on their way per position: two working orders on one position that fire on the same tick
 * must not both sell it (the account is read again only after an answer), so each takes what it
 * closes from what is left before anything is awaited.
 */
export class Closing {
  readonly #taken = new Map<string, bigint>();

  /** Takes up to `size` of what the position has left to close; returns what it took and how to give it back. */
  take(key: string, size: bigint, closable: bigint): { size: bigint; release(): void } {
    const taken = this.#taken.get(key) ?? 0n;
    const left = closable - taken;
    const n = size < left ? size : left > 0n ? left : 0n;
    this.#taken.set(key, taken + n);
    let released = false;
    return {
      size: n,
      release: () => {
        if (released) return;
        released = true;
        const now = (this.#taken.get(key) ?? 0n) - n;
        if (now > 0n) this.#taken.set(key, now);
        else this.#taken.delete(key);
      },
    };
  }
}

const nothingLeft = (limit: bigint): ExitSent => ({
  outcome: { orderId: null, filled: 0n, refused: null, inventory: 0n, note: 'nothing left to close' },
  fillPrice: null,
  limit,
});

export async function sendExit(
  ctx: CoreContext,
  session: TradingSession,
  o: WorkingOrder,
  e: SendExit,
  notes: readonly string[],
  closing: Closing,
): Promise<ExitSent> {
  const inventoryNow = (): bigint => session.desk.account?.inventory(o.assetId, o.epoch) ?? 0n;
  // Taken synchronously, before the gate is awaited: another exit firing on this tick sees it.
  const share = closing.take(
    `${o.account}:${o.assetId}:${o.epoch}:${e.sell}`,
    e.size,
    closable(inventoryNow(), e.sell),
  );
  if (share.size === 0n) {
    share.release();
    return nothingLeft(e.limit);
  }
  let passed;
  try {
    // Marketable, as a close is: the gate may tighten it to its guards' edge if that still reaches the book.
    passed = await gate(ctx, session, o, { sell: e.sell, price: e.limit, size: share.size }, 'IOC', notes, {
      best: e.best,
    });
  } catch (error) {
    share.release();
    return {
      outcome: { orderId: null, filled: 0n, refused: refusalOf(error), inventory: inventoryNow(), note: 'refused' },
      fillPrice: null,
      limit: e.limit,
    };
  }
  try {
    // Reduce-only: never more than the position holds now (the gate's dialog may have taken a while).
    const now = closable(inventoryNow(), e.sell);
    const size = share.size < now ? share.size : now;
    if (size === 0n) return nothingLeft(passed.price);
    const { result } = await sendFor(session, o, { sell: e.sell, price: passed.price, size }, 'IOC');
    const filled = BigInt(result.filled);
    const rejected = result.status === 'REJECTED';
    return {
      outcome: {
        orderId: result.orderId,
        filled,
        refused: rejected
          ? { code: 'working.rejected', message: `The exchange rejected it (${result.reason}).` }
          : null,
        inventory: inventoryNow(),
        note: rejected ? `rejected: ${result.reason}` : filled === 0n ? 'nothing filled' : `filled ${filled}`,
      },
      fillPrice: result.fillPrice,
      limit: passed.price,
    };
  } catch (error) {
    const r = refusalOf(error);
    // Sent or not, nothing is known: not retried blindly as a refusal would not be; the retry rule decides.
    return {
      outcome: { orderId: null, filled: 0n, refused: null, inventory: inventoryNow(), note: r.message },
      fillPrice: null,
      limit: passed.price,
    };
  } finally {
    passed.release();
    // Given back once the answer is in and the account read again (send() reads it).
    share.release();
  }
}

/** One resting (or IOC) order of a working order: a bracket's entry, an OCO's limit leg, a roll's quote. */
export async function placeOne(
  ctx: CoreContext,
  session: TradingSession,
  o: WorkingOrder,
  t: Ticket & { timeInForce: 'GTC' | 'IOC' },
  notes: readonly string[],
): Promise<Omit<PlacedOutcome, 'now'> & { price?: bigint }> {
  let passed;
  try {
    passed = await gate(ctx, session, o, t, t.timeInForce, notes);
  } catch (error) {
    return { orderId: null, filled: 0n, resting: false, refused: refusalOf(error) };
  }
  try {
    const { result } = await sendFor(session, o, { sell: t.sell, price: passed.price, size: t.size }, t.timeInForce);
    if (result.status === 'REJECTED')
      return {
        orderId: result.orderId,
        filled: 0n,
        resting: false,
        refused: { code: 'working.rejected', message: `The exchange rejected it (${result.reason}).` },
      };
    const resting = result.status === 'ACCEPTED' || result.status === 'PARTIALLY_FILLED';
    return {
      orderId: result.orderId,
      filled: BigInt(result.filled),
      resting: resting && t.timeInForce === 'GTC',
      refused: null,
      price: passed.price,
    };
  } catch (error) {
    return { orderId: null, filled: 0n, resting: false, refused: refusalOf(error) };
  } finally {
    passed.release();
  }
}

export async function placeQuotes(
  ctx: CoreContext,
  session: TradingSession,
  o: WorkingOrder,
  quotes: readonly Ticket[],
  notes: readonly string[],
): Promise<QuoteOutcome[]> {
  const out: QuoteOutcome[] = [];
  for (const q of quotes) {
    const r = await placeOne(ctx, session, o, { ...q, timeInForce: 'GTC' }, notes);
    out.push({
      orderId: r.orderId,
      resting: r.resting,
      refused: r.refused,
      filled: r.filled,
      price: r.price ?? q.price,
    });
  }
  return out;
}

/** Cancels resting orders of a working order with the key it trades with; what could not be cancelled, in words. */
export async function cancelOrders(
  session: TradingSession,
  o: WorkingOrder,
  e: Extract<Effect, { type: 'cancel' }>,
): Promise<string | null> {
  let failed = 0;
  for (const id of e.orderIds) {
    try {
      const actor = session.actor(o.signAs);
      const input = { assetId: e.assetId, epoch: e.epoch, orderHash: id as Hex };
      const outcome = actor.master
        ? await actor.client.cancelAgentOrder({ ...input, master: actor.master })
        : await actor.client.cancelOrder(input);
      if (outcome.delivery === 'duplicate' || outcome.response.status === 'CANCELLED')
        session.desk.ordersCancelled([id], 'cancelled by its working order');
    } catch {
      failed++;
    }
  }
  await session.desk.refresh().catch(() => undefined);
  return failed === 0
    ? null
    : `${failed} of its resting ${failed === 1 ? 'order' : 'orders'} could not be cancelled: cancel ${failed === 1 ? 'it' : 'them'} in Open orders.`;
}

type Requote = Extract<Effect, { type: 'requote' }>;

/**
 * A roll quote moved to its new target: the exchange's cancel-replace of the order it rests as, after
 * the same gate as an edit (the order it replaces left out of what is open), or a new order when none
 * rests. A re-quote the gate refuses cancels the stale quote, so it is off the book, not left behind
 * at a price fair value has moved away from.
 */
export async function requoteOne(
  ctx: CoreContext,
  session: TradingSession,
  o: WorkingOrder,
  e: Requote,
  notes: readonly string[],
): Promise<RequoteOutcome> {
  const t = { sell: e.sell, price: e.price, size: e.size };
  const none: RequoteOutcome = {
    orderId: null,
    price: e.price,
    size: e.size,
    resting: false,
    filled: 0n,
    refused: null,
    oldRests: false,
    unknown: false,
  };
  if (e.replaces === null) {
    const r = await placeOne(ctx, session, o, { ...t, timeInForce: 'GTC' }, notes);
    return { ...none, ...r, price: r.price ?? e.price, orderId: r.orderId };
  }
  let passed;
  try {
    session.signers.assertCanSign();
    passed = await passGate(ctx, session, {
      path: 'working-order',
      signAs: o.signAs,
      assetId: o.assetId,
      epoch: e.epoch,
      ticket: t,
      timeInForce: 'GTC',
      replaces: e.replaces,
      notes,
    });
  } catch (error) {
    const failed = await cancelOrders(session, o, {
      type: 'cancel',
      order: o.id,
      orderIds: [e.replaces],
      assetId: o.assetId,
      epoch: e.epoch,
    }).catch(() => 'not cancelled');
    return { ...none, refused: refusalOf(error), oldRests: failed !== null };
  }
  try {
    const sent = await sendReplace(session, {
      signAs: o.signAs,
      assetId: o.assetId,
      epoch: e.epoch,
      ticket: { ...t, price: passed.price },
      timeInForce: 'GTC',
      replaces: e.replaces as Hex,
    });
    if (!sent) {
      await session.desk.refresh().catch(() => undefined);
      return { ...none, unknown: true };
    }
    const r = sent.response;
    const cancelled = r.cancel.status === 'CANCELLED';
    if (cancelled) session.desk.ordersCancelled([e.replaces], 're-quoted by its roll');
    const rep = r.replacement;
    if (rep && rep.status !== 'REJECTED' && (r.status === 'SUCCESS' || cancelled)) {
      await session.desk.refresh().catch(() => undefined);
      return {
        ...none,
        orderId: rep.orderId,
        price: passed.price,
        resting: rep.status === 'ACCEPTED' || rep.status === 'PARTIALLY_FILLED',
        filled: rep.filled,
      };
    }
    await session.desk.refresh().catch(() => undefined);
    // CANCEL_FAILED: the order it replaced was no longer on the book (filled, or cancelled elsewhere).
    if (r.status === 'CANCEL_FAILED') return none;
    return {
      ...none,
      refused: {
        code: `working.rejected.${rep?.reason || r.status}`,
        message: `The exchange did not take its replacement (${rep?.reason ? rejectReasonSentence(rep.reason) : r.status}).`,
      },
      oldRests: !cancelled,
    };
  } catch (error) {
    // Sent or not, nothing is known of the old or the new order: not placed again in this epoch.
    await session.desk.refresh().catch(() => undefined);
    return { ...none, refused: refusalOf(error), unknown: true };
  } finally {
    passed.release();
  }
}
