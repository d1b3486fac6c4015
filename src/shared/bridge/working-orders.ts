/**
 * Working orders on the bridge (docs/working-orders.md): orders the exchange does not have, kept and
 * run by main. The window drafts them (prices in cents and sizes in contracts as typed, oracle levels
 * in dollars); main parses them with the protocol's unit rules, decides when they fire, and passes
 * every order they send through the same order gate as the window's own orders.
 */
import { z } from 'zod';
import { ROLL_MAX_QUOTES } from '../working-defaults';
import { address, bytes32, decimalString, humanString, marketRef, sideName, signAs, unixMs } from './primitives';

/** A signed decimal as typed (dollars of the oracle's price, or cents of an offset), e.g. "-20" or "1.5". */
const signedHuman = z
  .string()
  .trim()
  .regex(/^[+-]?\d{1,12}(\.\d{1,6})?$/, 'a signed decimal, e.g. -20 or 1.5');
/** An unsigned dollar price of the oracle as typed, e.g. "64980.5". */
const dollarsHuman = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, 'a price in dollars, e.g. 64980.5');

/** The oracle stop's level: dollars from the epoch's strike (e.g. "-20": 20 $ below it), or an oracle price. */
export const oracleLevelDraft = z.discriminatedUnion('from', [
  z.object({ from: z.literal('strike'), offset: signedHuman }).strict(),
  z.object({ from: z.literal('absolute'), price: dollarsHuman }).strict(),
]);

/**
 * What makes an exit fire. Contract prices are in cents. `double`: two consecutive quotes through the
 * price, not one (IBKR's "double bid/ask"). `direction` of an oracle stop: the side of the level that
 * fires it; by default the one against the position (below for a long Up, above for a short).
 */
export const exitTriggerDraft = z.discriminatedUnion('type', [
  z.object({ type: z.literal('take-profit'), price: humanString, double: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('stop'), price: humanString, double: z.boolean().optional() }).strict(),
  z
    .object({
      type: z.literal('oracle-stop'),
      level: oracleLevelDraft,
      direction: z.enum(['below', 'above']).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('time-exit'),
      secondsBeforeEnd: z
        .number()
        .int()
        .min(1)
        .max(24 * 3600),
    })
    .strict(),
]);

/**
 * How an exit is sent: `size` in contracts (absent: the whole position when it fires), `slippage` in
 * cents from the trigger's price (absent: the ticket's maximum slippage setting), `retries`: how many
 * more IOCs may follow one that did not fill (0–5, default 0).
 */
const exitSending = {
  size: humanString.optional(),
  slippage: humanString.optional(),
  retries: z.number().int().min(0).max(5).optional(),
};

export const limitLegDraft = z
  .object({ type: z.literal('limit'), side: sideName, price: humanString, size: humanString })
  .strict();
export const exitLegDraft = z.object({ type: z.literal('exit'), trigger: exitTriggerDraft, ...exitSending }).strict();
export const ocoLegDraft = z.discriminatedUnion('type', [limitLegDraft, exitLegDraft]);

/** A quote a roll places in each epoch: `offset` cents from fair value (signed), or a fixed price in cents. */
export const rollQuoteDraft = z
  .object({
    side: sideName,
    size: humanString,
    price: z.discriminatedUnion('from', [
      z.object({ from: z.literal('fair'), offset: signedHuman }).strict(),
      z.object({ from: z.literal('fixed'), price: humanString }).strict(),
    ]),
  })
  .strict();

/**
 * A roll's re-quote step in cents as typed, from one tick (0.1) to 99.9: an offset quote is moved to
 * fair value's new target once that is this far from where it rests.
 */
export const requoteStepDraft = z
  .string()
  .trim()
  .regex(/^\d{1,2}(\.\d)?$/, 'cents from 0.1 to 99.9 in steps of 0.1, e.g. 1 or 0.5')
  .refine((s) => Number(s) >= 0.1, 'at least one tick, 0.1¢');

export const workingOrderDraft = z.discriminatedUnion('kind', [
  /** An exit attached to the position in one market's epoch. */
  z.object({ kind: z.literal('exit'), ...marketRef.shape, signAs, trigger: exitTriggerDraft, ...exitSending }).strict(),
  /** Two legs: one filling (a limit) or firing (an exit) cancels the other. */
  z.object({ kind: z.literal('oco'), ...marketRef.shape, signAs, legs: z.tuple([ocoLegDraft, ocoLegDraft]) }).strict(),
  /**
   * An entry with a take-profit and a stop (either or both) attached as an OCO, armed by the entry's
   * fills: each fill arms that many contracts.
   */
  z
    .object({
      kind: z.literal('bracket'),
      ...marketRef.shape,
      signAs,
      entry: z
        .object({ side: sideName, price: humanString, size: humanString, timeInForce: z.enum(['GTC', 'IOC']) })
        .strict(),
      takeProfit: humanString.optional(),
      stop: humanString.optional(),
      double: z.boolean().optional(),
      slippage: humanString.optional(),
      retries: z.number().int().min(0).max(5).optional(),
    })
    .strict(),
  /** Resting quotes on one asset, placed again in each new epoch until stopped (or for `epochs` epochs). */
  z
    .object({
      kind: z.literal('roll'),
      assetId: decimalString,
      signAs,
      quotes: z.array(rollQuoteDraft).min(1).max(ROLL_MAX_QUOTES),
      epochs: z.number().int().min(1).max(10_000).optional(),
      /** Cents; absent: 1¢. */
      requoteStep: requoteStepDraft.optional(),
    })
    .strict(),
]);

/**
 * A change to a working order that has not fired: one leg's trigger moved (`price` of a take-profit,
 * stop or limit leg; `level`, `secondsBeforeEnd`, `double`), its sending terms, or a roll's quotes
 * (its current epoch's quotes are replaced at once) or re-quote step. `leg`: which leg (default: the only trigger).
 */
export const workingOrderEdit = z
  .object({
    id: z.string().min(1).max(40),
    leg: z.string().min(1).max(40).optional(),
    price: humanString.optional(),
    double: z.boolean().optional(),
    level: oracleLevelDraft.optional(),
    secondsBeforeEnd: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
    size: humanString.nullable().optional(),
    slippage: humanString.optional(),
    retries: z.number().int().min(0).max(5).optional(),
    quotes: z.array(rollQuoteDraft).min(1).max(ROLL_MAX_QUOTES).optional(),
    /** A roll's re-quote step in cents (its quotes stay where they rest until fair value next moves). */
    requoteStep: requoteStepDraft.optional(),
  })
  .strict();

/** A cancel: the whole working order, or only one leg of it (`leg`, a leg's id from its view). */
export const workingOrderCancel = z
  .object({ id: z.string().min(1).max(40), leg: z.string().min(1).max(40).optional() })
  .strict();
/** Cancel all: of one market (asset and optionally epoch), or every working order of the app. */
export const workingOrdersCancelAll = z
  .object({ assetId: decimalString.optional(), epoch: decimalString.optional() })
  .strict();

export const workingOrderState = z.enum([
  /** Waiting for its entry to fill (a bracket), or running (a roll). */
  'pending',
  /** Watching its trigger. */
  'armed',
  /** Fired: its order is on its way (or being retried). */
  'firing',
  /** Finished: what it sent filled, or it has nothing left to do. */
  'done',
  /** Ended without finishing, for `reason`. */
  'stopped',
]);

/** One IOC an exit sent (or tried to): the facts the window words. */
export const exitAttemptView = z.object({
  at: unixMs,
  side: sideName,
  limit: decimalString,
  size: decimalString,
  orderId: bytes32.nullable(),
  /** Null while the exchange's answer is not known (sent, not answered, or the app closed meanwhile). */
  filled: decimalString.nullable(),
  /** What came of it, in words (a refusal's sentence, "filled 10 at 44.5¢ average", "nothing filled"). */
  note: z.string(),
});

export const workingLegView = z.object({
  id: z.string(),
  /** entry: a bracket's entry; quote: a roll's; limit: an OCO's resting leg; the rest are exits. */
  type: z.enum(['take-profit', 'stop', 'oracle-stop', 'time-exit', 'limit', 'entry', 'quote']),
  state: z.enum(['idle', 'armed', 'resting', 'firing', 'filled', 'done', 'cancelled']),
  /** The side it sends (an exit: the side that closes the position). */
  side: sideName,
  /** Contract price: an exit's trigger, a limit's price; null for oracle and time exits. */
  price: decimalString.nullable(),
  double: z.boolean(),
  /** An oracle stop's level as an oracle price, and the side of it that fires. */
  oracleLevel: decimalString.nullable(),
  direction: z.enum(['below', 'above']).nullable(),
  /** A time exit's moment, by the exchange's clock. */
  fireAt: unixMs.nullable(),
  secondsBeforeEnd: z.number().int().nullable(),
  /** Contracts; null: the whole position when it fires. */
  size: decimalString.nullable(),
  /** A bracket's exits: contracts its entry's fills armed so far. */
  armed: decimalString.nullable(),
  slippage: decimalString.nullable(),
  retries: z.number().int(),
  attempts: z.array(exitAttemptView),
  /** A resting leg's order on the exchange, and how much of it filled. */
  orderId: bytes32.nullable(),
  filled: decimalString,
});

/** One roll quote in the current epoch: where fair value puts it now, and where it rests. */
export const rollQuoteLive = z.object({
  /** placing: on its way; off: not on the book (`note` says why); lost: not known (check Open orders). */
  state: z.enum(['placing', 'resting', 'off', 'filled', 'lost']),
  /** An offset quote's price at the last fair value seen; null for a fixed price (or no fair value yet). */
  target: decimalString.nullable(),
  /** Its price on the book; null when it is not on it. */
  resting: decimalString.nullable(),
  /** Contracts of it filled in this epoch. */
  filled: decimalString,
  note: z.string().nullable(),
});

export const workingOrderView = z.object({
  id: z.string(),
  kind: z.enum(['exit', 'oco', 'bracket', 'roll']),
  state: workingOrderState,
  account: address,
  signAs,
  assetId: decimalString,
  /** The epoch it works in (a roll: the epoch it last placed, or the current one). */
  epoch: decimalString,
  /** The market as the market list names it, e.g. "BTC 1m #3". */
  market: z.string(),
  createdAt: unixMs,
  /** Why an armed order is holding now ("waiting: feed not live (…)"), null when it is not. */
  waiting: z.string().nullable(),
  /** Why it stopped, or how it finished; null while it runs. */
  reason: z.string().nullable(),
  legs: z.array(workingLegView),
  /**
   * A roll: its quotes as drafted, the epochs it placed, the most it will run (null: until stopped),
   * its re-quote step, and each quote in the current epoch (`live`, by index of `quotes`; empty before
   * its first placement).
   */
  roll: z
    .object({
      quotes: z.array(rollQuoteDraft),
      epochsPlaced: z.number().int(),
      epochs: z.number().int().nullable(),
      /** Micro-dollars (10^-6 $ a contract). */
      requoteStep: decimalString,
      live: z.array(rollQuoteLive),
    })
    .nullable(),
});

export type WorkingOrderDraft = z.infer<typeof workingOrderDraft>;
export type WorkingOrderEdit = z.infer<typeof workingOrderEdit>;
export type WorkingOrderCancel = z.infer<typeof workingOrderCancel>;
export type WorkingOrderView = z.infer<typeof workingOrderView>;
export type WorkingLegView = z.infer<typeof workingLegView>;
export type ExitTriggerDraft = z.infer<typeof exitTriggerDraft>;
export type OracleLevelDraft = z.infer<typeof oracleLevelDraft>;
export type RollQuoteDraft = z.infer<typeof rollQuoteDraft>;
export type RollQuoteLive = z.infer<typeof rollQuoteLive>;
export type OcoLegDraft = z.infer<typeof ocoLegDraft>;

const list = z.array(workingOrderView);

export const workingOrderMethods = {
  'workingOrders.create': {
    args: z.tuple([workingOrderDraft]),
    result: workingOrderView,
    summary:
      'Create a working order (exit, OCO, bracket or roll) that main runs while the app runs; every order it sends passes the order gate.',
  },
  'workingOrders.edit': {
    args: z.tuple([workingOrderEdit]),
    result: workingOrderView,
    summary: 'Move a trigger or change the terms of a working order that has not fired.',
  },
  'workingOrders.cancel': {
    args: z.tuple([workingOrderCancel]),
    result: workingOrderView,
    summary:
      'Stop a working order, or only one leg of it (the rest keeps working; the last leg ends it); resting orders it cancels are cancelled on the exchange.',
  },
  'workingOrders.cancelAll': {
    args: z.tuple([workingOrdersCancelAll]),
    result: list,
    summary: 'Stop every running working order (of one market when given); their resting orders are cancelled.',
  },
  'workingOrders.list': {
    args: z.tuple([]),
    result: list,
    summary: 'Every working order kept (running ones first, then the recently ended), with state and why it waits.',
  },
} as const;

export const workingOrderEvents = {
  workingOrders: {
    payload: list,
    summary: 'A working order was created, changed state, fired, filled, waited or stopped (the whole list).',
  },
} as const;
