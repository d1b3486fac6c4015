/** A working order as the window sees it (src/shared/bridge/working-orders.ts): decimal strings, no bigint. */
import type { RollQuoteDraft, RollQuoteLive, WorkingLegView, WorkingOrderView } from '../../../shared/bridge';
import { formatPrice, formatSize } from '../../../shared/protocol';
import { exited } from './lifecycle';
import { timeExitAt } from './triggers';
import type { ExitLeg, LimitLeg, Roll, RollQuote, RollSlot, WorkingOrder } from './types';
import { running } from './types';

const side = (sell: boolean): 'buy' | 'sell' => (sell ? 'sell' : 'buy');

function exitView(leg: ExitLeg, expiry: number | null): WorkingLegView {
  const t = leg.trigger;
  return {
    id: leg.id,
    type: t.type,
    state: leg.state,
    side: side(leg.sell),
    price: t.type === 'take-profit' || t.type === 'stop' ? t.price.toString() : null,
    double: (t.type === 'take-profit' || t.type === 'stop') && t.double,
    oracleLevel: t.type === 'oracle-stop' ? (t.level < 0n ? '0' : t.level.toString()) : null,
    direction: t.type === 'oracle-stop' ? t.direction : null,
    fireAt: t.type === 'time-exit' && expiry !== null ? Math.max(0, timeExitAt(expiry, t.secondsBeforeEnd)) : null,
    secondsBeforeEnd: t.type === 'time-exit' ? t.secondsBeforeEnd : null,
    size: leg.size?.toString() ?? null,
    armed: leg.armed?.toString() ?? null,
    slippage: leg.slippage.toString(),
    retries: leg.retries,
    attempts: leg.attempts.map((a) => ({
      at: Math.max(0, Math.round(a.at)),
      side: side(a.sell),
      limit: a.limit.toString(),
      size: a.size.toString(),
      orderId: a.orderId,
      filled: a.filled?.toString() ?? null,
      note: a.note,
    })),
    orderId: null,
    filled: exited(leg).toString(),
  };
}

function limitView(leg: LimitLeg): WorkingLegView {
  return {
    id: leg.id,
    type: leg.role === 'entry' ? 'entry' : 'limit',
    state: leg.state === 'placing' ? 'firing' : leg.state,
    side: side(leg.sell),
    price: leg.price.toString(),
    double: false,
    oracleLevel: null,
    direction: null,
    fireAt: null,
    secondsBeforeEnd: null,
    size: leg.size.toString(),
    armed: null,
    slippage: null,
    retries: 0,
    attempts: [],
    orderId: leg.orderId,
    filled: leg.filled.toString(),
  };
}

/** Cents and contracts as the window drafts them (a roll's quotes come back in its own words). */
function rollQuoteDraftOf(q: RollQuote): RollQuoteDraft {
  const offset = q.price.from === 'fair' ? q.price.offset : 0n;
  return {
    side: side(q.sell),
    size: formatSize(q.size),
    price:
      q.price.from === 'fair'
        ? { from: 'fair', offset: `${offset < 0n ? '-' : ''}${formatPrice(offset < 0n ? -offset : offset)}` }
        : { from: 'fixed', price: formatPrice(q.price.price) },
  };
}

function rollLive(s: RollSlot, live: boolean): RollQuoteLive {
  return {
    // An ended roll's quotes were cancelled with it.
    state: live || s.state === 'filled' ? s.state : 'off',
    target: s.target?.toString() ?? null,
    resting: live ? (s.price?.toString() ?? null) : null,
    filled: s.filled.toString(),
    note: s.refused,
  };
}

/** Why a roll holds, in words: a quote off the book waits for fair value to move (an offset) or for the next epoch. */
function rollWhy(r: Roll): string | null {
  const i = r.slots.findIndex((s) => s.refused !== null);
  const s = r.slots[i];
  if (!s) return r.held ? `waiting: ${r.held}` : null;
  const q = r.quotes[i]!;
  const name = q.sell ? 'ask' : 'bid';
  if (q.price.from === 'fair' && s.state === 'off')
    return `waiting to re-quote its ${name} when fair value next moves: ${s.refused}`;
  return `waiting: its ${name} is off the book: ${s.refused}`;
}

export function viewOf(o: WorkingOrder, market: string, expiry: number | null): WorkingOrderView {
  return {
    id: o.id,
    kind: o.kind,
    state: o.state,
    account: o.account,
    signAs: o.signAs,
    assetId: o.assetId.toString(),
    epoch: o.epoch.toString(),
    market,
    createdAt: Math.max(0, Math.round(o.createdAt)),
    waiting: o.waiting ?? (o.roll && running(o) ? rollWhy(o.roll) : null),
    reason: o.reason,
    legs: o.legs.map((l) => (l.type === 'exit' ? exitView(l, expiry) : limitView(l))),
    roll: o.roll
      ? {
          quotes: o.roll.quotes.map(rollQuoteDraftOf),
          epochsPlaced: o.roll.placedEpochs,
          epochs: o.roll.epochs,
          requoteStep: o.roll.step.toString(),
          live: o.roll.slots.map((s) => rollLive(s, running(o))),
        }
      : null,
  };
}
