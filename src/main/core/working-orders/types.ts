/**
 * A working order as main keeps it (docs/working-orders.md): declared once, as the zod schema of its
 * stored form, so what the store holds and what the engine runs on cannot drift apart. Protocol
 * integers are bigint here and decimal strings in the store (`toStored`). The window's shapes are
 * the bridge's (src/shared/bridge/working-orders.ts); view.ts maps one to the other.
 */
import { z } from 'zod';

const big = z
  .string()
  .regex(/^-?\d{1,40}$/)
  .transform((s) => BigInt(s));
const id = z.string().min(1).max(40);
const orderHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const triggerRecord = z.discriminatedUnion('type', [
  /** A contract price on the best quote that closes the position (bid for a sell, ask for a buy). */
  z.object({ type: z.literal('take-profit'), price: big, double: z.boolean() }),
  z.object({ type: z.literal('stop'), price: big, double: z.boolean() }),
  /** An oracle price level (resolved from the strike when drafted so), and the side of it that fires. */
  z.object({
    type: z.literal('oracle-stop'),
    level: big,
    direction: z.enum(['below', 'above']),
    /** The draft's offset from the strike (oracle units), kept to show and edit; null for an absolute level. */
    strikeOffset: big.nullable(),
  }),
  z.object({ type: z.literal('time-exit'), secondsBeforeEnd: z.number().int().positive() }),
]);

/** One IOC an exit sent. `filled` null: not answered (or the app closed before its answer). */
export const attemptRecord = z.object({
  at: z.number(),
  sell: z.boolean(),
  limit: big,
  size: big,
  orderId: orderHash.nullable(),
  filled: big.nullable(),
  note: z.string().max(500),
});

export const exitLegRecord = z.object({
  id,
  type: z.literal('exit'),
  trigger: triggerRecord,
  /** The side that closes the position it is attached to. */
  sell: z.boolean(),
  /** Contracts to close; null: the whole position when it fires. */
  size: big.nullable(),
  /** A bracket's exit: contracts its entry's fills armed (it closes at most these); null elsewhere. */
  armed: big.nullable(),
  slippage: big,
  retries: z.number().int().min(0).max(5),
  /** idle: not armed yet (a bracket before its entry fills). */
  state: z.enum(['idle', 'armed', 'firing', 'done', 'cancelled']),
  /** Consecutive quotes seen through the price (the double trigger), and the quote last counted. */
  through: z.number().int().min(0),
  lastQuote: big.nullable(),
  attempts: z.array(attemptRecord).max(6),
  /** Fired and not (fully) filled: when the next try goes (exchange ms), null when none is due. */
  retryAt: z.number().nullable(),
});

export const limitLegRecord = z.object({
  id,
  type: z.literal('limit'),
  /** entry: a bracket's; limit: an OCO's leg. */
  role: z.enum(['entry', 'limit']),
  sell: z.boolean(),
  price: big,
  size: big,
  timeInForce: z.enum(['GTC', 'IOC']),
  /** placing: recorded before it is sent, and its answer not yet known. */
  state: z.enum(['placing', 'resting', 'filled', 'done', 'cancelled']),
  orderId: orderHash.nullable(),
  filled: big,
});

export const rollQuoteRecord = z.object({
  sell: z.boolean(),
  size: big,
  price: z.discriminatedUnion('from', [
    z.object({ from: z.literal('fair'), offset: big }),
    z.object({ from: z.literal('fixed'), price: big }),
  ]),
});

/**
 * One quote of a roll in the current epoch (roll.ts, requote.ts): where it rests and what of it filled,
 * so an offset quote can follow fair value inside the epoch. Rolls stored before pegging have none.
 */
export const rollSlotRecord = z.object({
  /**
   * placing: an order of it is on its way (its answer not known yet); off: not on the book (refused,
   * or gone without filling); filled: all of it traded; lost: not known whether it rests (the app
   * closed while it was on its way), so never placed again in this epoch.
   */
  state: z.enum(['placing', 'resting', 'off', 'filled', 'lost']),
  /** Its orders in this epoch, newest last (the one before still counts its late fills). */
  orderIds: z.array(orderHash).max(4),
  /** Where it rests now, and the size of that order; null price: not on the book. */
  price: big.nullable(),
  size: big,
  /** Filled of the newest order, and of every order of this quote in the epoch. */
  orderFilled: big,
  filled: big,
  /** An offset quote's price at the last fair value seen (fair + offset on the tick); null otherwise. */
  target: big.nullable(),
  /** When it was last placed or re-quoted (exchange ms), and fair value then. */
  at: z.number().nullable(),
  fair: big.nullable(),
  /** Why it is off the book (the gate's sentence), or null. */
  refused: z.string().max(500).nullable(),
});

export const rollRecord = z.object({
  quotes: z.array(rollQuoteRecord).min(1).max(8),
  /** An offset quote is moved once its target is this far from where it rests (10^-6 $; default 1¢). */
  step: big.default(10_000n),
  /** Each placement of quotes (a new epoch, an edit) counts one: an answer from an older one is not this one's. */
  round: z.number().int().min(0).default(0),
  /** The current epoch's quotes, by index of `quotes` (empty: none placed yet, or a roll stored before pegging). */
  slots: z
    .array(rollSlotRecord)
    .max(8)
    .default(() => []),
  /** Refusal codes already told in a notice: one notice per reason per roll, not per try. */
  noticed: z
    .array(z.string().max(80))
    .max(16)
    .default(() => []),
  /** The most epochs it places in; null: until stopped. */
  epochs: z.number().int().positive().nullable(),
  /** Epochs it placed in (recorded before the first quote is sent: never placed twice in one). */
  placedEpochs: z.number().int().min(0),
  lastEpoch: big.nullable(),
  /** The current epoch's quotes on the exchange. */
  resting: z.array(orderHash).max(8),
  /** Said once an epoch: why its quotes could not go (cleared at the next epoch). */
  held: z.string().max(500).nullable(),
});

export const workingOrderRecord = z.object({
  id,
  kind: z.enum(['exit', 'oco', 'bracket', 'roll']),
  /** The deployment and account it trades for: it stops when either is no longer the selected one. */
  deployment: z.string().min(1).max(200),
  account: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  signAs: z.enum(['master', 'agent']),
  assetId: big,
  epoch: big,
  createdAt: z.number(),
  state: z.enum(['pending', 'armed', 'firing', 'done', 'stopped']),
  reason: z.string().max(500).nullable(),
  legs: z.array(z.discriminatedUnion('type', [exitLegRecord, limitLegRecord])).max(3),
  roll: rollRecord.nullable(),
  /** Ended at (ms): ended orders are kept a while for the list, then dropped. */
  endedAt: z.number().nullable(),
  /** Why it holds now (a feed not live, no price to send at); null when it does not. */
  waiting: z.string().max(500).nullable(),
  /** Since when (exchange ms) its position has looked gone: it stops only once that lasts (fills and reads race). */
  goneSince: z.number().nullable(),
});

export type Trigger = z.output<typeof triggerRecord>;
export type ExitLeg = z.output<typeof exitLegRecord>;
export type LimitLeg = z.output<typeof limitLegRecord>;
export type RollQuote = z.output<typeof rollQuoteRecord>;
export type Roll = z.output<typeof rollRecord>;
export type RollSlot = z.output<typeof rollSlotRecord>;
export type WorkingOrder = z.output<typeof workingOrderRecord>;

/** The stored form: every bigint as its decimal string (the schema reads it back). */
export function toStored(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toStored);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toStored(v)]));
  return value;
}

/** A running order: one that may still send something. */
export function running(o: WorkingOrder): boolean {
  return o.state === 'pending' || o.state === 'armed' || o.state === 'firing';
}

/** The quote an exit trades against, with its size (the double trigger counts changes of either). */
export interface Quote {
  price: bigint;
  size: bigint;
}

/**
 * What the engine sees of one order's market at one moment (runner.ts builds it from the session).
 * Feeds that are not live give null with the sentence why: a trigger never fires on a stale price.
 */
export interface MarketLook {
  /** The market's name as the market list shows it ("BTC 1m #3"), for sentences. */
  market: string;
  /** The epoch looked at: the order's own, or a roll's asset's current one. */
  epoch: bigint;
  /** Exchange time now (ms, the session's clock). */
  now: number;
  /** When the order's epoch ends (ms, exchange time). */
  expiry: number;
  strike: bigint | null;
  /** Other traders' best bid and ask (own quotes left out), from a live book; null when it is not live. */
  book: { bid: Quote | null; ask: Quote | null } | null;
  bookNote: string | null;
  /** The newest oracle price while its feed is live; null otherwise. */
  oracle: bigint | null;
  oracleNote: string | null;
  /** The account's signed position in this market (positive: long Up). */
  inventory: bigint;
  /** Fair value of the epoch, null when none (a roll's offsets need one). */
  fair: bigint | null;
}

/** What the engine asks the runner to do. Every send is recorded in the order before the effect is given. */
export type Effect =
  | {
      type: 'send-exit';
      order: string;
      leg: string;
      /** Index of the attempt recorded for this send. */
      attempt: number;
      sell: boolean;
      limit: bigint;
      /** Contracts at most (clipped to the position again right before signing). */
      size: bigint;
      /** The best opposite price now (the gate may tighten a marketable limit up to it); null: none. */
      best: bigint | null;
    }
  | {
      type: 'place-limit';
      order: string;
      leg: string;
      sell: boolean;
      price: bigint;
      size: bigint;
      timeInForce: 'GTC' | 'IOC';
    }
  | { type: 'place-quotes'; order: string; epoch: bigint; quotes: { sell: boolean; price: bigint; size: bigint }[] }
  | {
      type: 'requote';
      order: string;
      epoch: bigint;
      /** The placement it belongs to (Roll.round) and the quote's index in it. */
      round: number;
      quote: number;
      /** The resting order it replaces (cancel-replace); null: none rests, a new order is placed. */
      replaces: string | null;
      sell: boolean;
      price: bigint;
      size: bigint;
    }
  | { type: 'cancel'; order: string; orderIds: string[]; assetId: bigint; epoch: bigint }
  | { type: 'notice'; level: 'info' | 'warning'; message: string };

/** A coded failure with its sentence (the gate's refusals and the engine's own). */
export interface Refusal {
  code: string;
  message: string;
}
