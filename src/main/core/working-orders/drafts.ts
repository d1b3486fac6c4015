/**
 * A working order as the window drafted it, parsed into main's record with the protocol's exact unit
 * rules: contract prices in cents (0.1¢ ticks), sizes in contracts, oracle levels in dollars (the
 * oracle's 10^6 scale). Each refusal is a code and a sentence naming the field as the screen does.
 */
import type {
  ExitTriggerDraft,
  OracleLevelDraft,
  RollQuoteDraft,
  WorkingOrderDraft,
  WorkingOrderEdit,
} from '../../../shared/bridge';
import { ORDER_LIMITS } from '../../../shared/bridge/limits';
import { formatCents, PRICE_TICK } from '../../../shared/protocol';
import { BridgeFailure } from '../bridge-runtime';
import { ticketPrice, ticketSize } from '../trading-math/order-math';
import { closable } from './lifecycle';
import { DEFAULT_STEP } from './requote';
import type { ExitLeg, LimitLeg, RollQuote, Trigger, WorkingOrder } from './types';

/** The oracle's scale: USD × 10^6 (docs/protocol/choices.md#oracle-scale-and-timestamps). */
const ORACLE_DECIMALS = 6;

/** A contract price as the ticket takes it (parseTicket's rule), refused naming the field. */
function priceOf(text: string, what: string): bigint {
  const price = ticketPrice(text);
  if (price === null)
    throw new BridgeFailure(
      'working.invalid_price',
      `${what} must be a price in cents from ${ORDER_LIMITS.minPriceCents} to ${ORDER_LIMITS.maxPriceCents} in steps of ${ORDER_LIMITS.priceStepCents}; "${text.slice(0, 20)}" is not one.`,
    );
  return price;
}

/** A size in contracts as the ticket takes it (parseTicket's rule), refused naming the field. */
function sizeOf(text: string, what: string): bigint {
  const size = ticketSize(text);
  if (size === null)
    throw new BridgeFailure(
      'working.invalid_size',
      `${what} must be a number of contracts from ${ORDER_LIMITS.minSize} to ${ORDER_LIMITS.maxSize} in steps of ${ORDER_LIMITS.sizeStep}; "${text.slice(0, 20)}" is not one.`,
    );
  return size;
}

/** Cents as typed, from 0 (no slippage) to 99.9, or signed for an offset, in 0.1¢ ticks. */
function centsOf(text: string, what: string, signed: boolean): bigint {
  const m = /^([+-]?)(\d{1,2})(?:\.(\d))?\s*[¢c]?$/i.exec(text.trim());
  if (!m || (!signed && m[1] === '-'))
    throw new BridgeFailure(
      'working.invalid_cents',
      `${what} must be ${signed ? 'a signed number of' : ''} cents${signed ? '' : ' from 0'} up to 99.9 in steps of 0.1; "${text.slice(0, 20)}" is not.`,
    );
  const tenths = BigInt(m[2]!) * 10n + BigInt(m[3] ?? '0');
  return (m[1] === '-' ? -tenths : tenths) * PRICE_TICK;
}

const slippageOf = (text: string): bigint => centsOf(text, 'Slippage', false);

/** A roll's re-quote step: at least one tick (a step of 0 would re-quote on every tick of fair value). */
function requoteStepOf(text: string | undefined): bigint {
  if (text === undefined) return DEFAULT_STEP;
  const step = centsOf(text, 'The re-quote step', false);
  if (step < PRICE_TICK)
    throw new BridgeFailure('working.invalid_cents', 'The re-quote step must be at least one tick, 0.1¢.');
  return step;
}

/** Dollars as typed, exactly, on the oracle's scale. */
function dollarsOf(text: string): bigint {
  const m = /^([+-]?)(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) throw new BridgeFailure('working.invalid_level', `The oracle level must be in dollars, e.g. -20 or 64980.5.`);
  const v = BigInt(m[2]! + (m[3] ?? '').padEnd(ORACLE_DECIMALS, '0'));
  return m[1] === '-' ? -v : v;
}

export interface DraftFacts {
  id: string;
  now: number;
  deployment: string;
  account: string;
  /** The account's position in the market now (exits are attached to it). */
  inventory: bigint;
  /** The epoch's strike (an oracle level drafted from it needs it). */
  strike: bigint | null;
  /** The ticket's maximum slippage setting: what an exit uses when its draft names none. */
  slippage: bigint;
}

function oracleLevel(level: OracleLevelDraft, strike: bigint | null): { level: bigint; strikeOffset: bigint | null } {
  if (level.from === 'absolute') return { level: dollarsOf(level.price), strikeOffset: null };
  if (strike === null)
    throw new BridgeFailure(
      'working.no_strike',
      'The strike of this epoch has not been read yet, so a level from it cannot be set: try again in a moment.',
    );
  const offset = dollarsOf(level.offset);
  return { level: strike + offset, strikeOffset: offset };
}

function triggerOf(t: ExitTriggerDraft, sell: boolean, strike: bigint | null): Trigger {
  switch (t.type) {
    case 'take-profit':
    case 'stop':
      return {
        type: t.type,
        price: priceOf(t.price, t.type === 'stop' ? 'The stop price' : 'The take-profit price'),
        double: t.double ?? false,
      };
    case 'oracle-stop':
      // Against the position by default: a long Up loses as the oracle falls, a short as it rises.
      return {
        type: 'oracle-stop',
        ...oracleLevel(t.level, strike),
        direction: t.direction ?? (sell ? 'below' : 'above'),
      };
    case 'time-exit':
      return { type: 'time-exit', secondsBeforeEnd: t.secondsBeforeEnd };
  }
}

function exitLeg(
  id: string,
  trigger: Trigger,
  sell: boolean,
  o: { size?: string | undefined; slippage?: string | undefined; retries?: number | undefined },
  f: DraftFacts,
  armed: bigint | null,
): ExitLeg {
  return {
    id,
    type: 'exit',
    trigger,
    sell,
    size: o.size === undefined ? null : sizeOf(o.size, 'The exit size'),
    armed,
    slippage: o.slippage === undefined ? f.slippage : slippageOf(o.slippage),
    retries: o.retries ?? 0,
    state: armed === null ? 'armed' : 'idle',
    through: 0,
    lastQuote: null,
    attempts: [],
    retryAt: null,
  };
}

function limitLeg(
  id: string,
  role: LimitLeg['role'],
  d: { side: 'buy' | 'sell'; price: string; size: string },
  timeInForce: 'GTC' | 'IOC',
): LimitLeg {
  return {
    id,
    type: 'limit',
    role,
    sell: d.side === 'sell',
    price: priceOf(d.price, role === 'entry' ? 'The entry price' : 'The limit price'),
    size: sizeOf(d.size, role === 'entry' ? 'The entry size' : 'The limit size'),
    timeInForce,
    state: 'placing',
    orderId: null,
    filled: 0n,
  };
}

function rollQuoteOf(q: RollQuoteDraft): RollQuote {
  return {
    sell: q.side === 'sell',
    size: sizeOf(q.size, 'The quote size'),
    price:
      q.price.from === 'fair'
        ? { from: 'fair', offset: centsOf(q.price.offset, 'The offset from fair value', true) }
        : { from: 'fixed', price: priceOf(q.price.price, 'The quote price') },
  };
}

/** The side that exits the position now, or a refusal when there is none to exit. */
function exitSide(inventory: bigint): boolean {
  if (inventory === 0n)
    throw new BridgeFailure(
      'working.no_position',
      'There is no position in this market to attach an exit to: buy or sell first, or use a bracket.',
    );
  return inventory > 0n;
}

export function recordOf(d: WorkingOrderDraft, f: DraftFacts): WorkingOrder {
  const base = {
    id: f.id,
    kind: d.kind,
    deployment: f.deployment,
    account: f.account,
    signAs: d.signAs,
    assetId: BigInt(d.assetId),
    epoch: d.kind === 'roll' ? 0n : BigInt(d.epoch),
    createdAt: f.now,
    reason: null,
    roll: null,
    endedAt: null,
    waiting: null,
    goneSince: null,
  };
  switch (d.kind) {
    case 'exit': {
      const sell = exitSide(f.inventory);
      return {
        ...base,
        state: 'armed',
        legs: [exitLeg(`${f.id}.x`, triggerOf(d.trigger, sell, f.strike), sell, d, f, null)],
      };
    }
    case 'oco': {
      const legs = d.legs.map((l, i) => {
        const id = `${f.id}.${i + 1}`;
        if (l.type === 'limit') return limitLeg(id, 'limit', l, 'GTC');
        const sell = exitSide(f.inventory);
        return exitLeg(id, triggerOf(l.trigger, sell, f.strike), sell, l, f, null);
      });
      return { ...base, state: 'armed', legs };
    }
    case 'bracket': {
      if (d.takeProfit === undefined && d.stop === undefined)
        throw new BridgeFailure('working.no_exits', 'A bracket needs a take-profit, a stop, or both.');
      const entry = limitLeg(`${f.id}.entry`, 'entry', d.entry, d.entry.timeInForce);
      const sell = !entry.sell;
      const terms = { slippage: d.slippage, retries: d.retries };
      const legs: (ExitLeg | LimitLeg)[] = [entry];
      if (d.takeProfit !== undefined)
        legs.push(
          exitLeg(
            `${f.id}.tp`,
            triggerOf({ type: 'take-profit', price: d.takeProfit, double: d.double }, sell, null),
            sell,
            terms,
            f,
            0n,
          ),
        );
      if (d.stop !== undefined)
        legs.push(
          exitLeg(
            `${f.id}.stop`,
            triggerOf({ type: 'stop', price: d.stop, double: d.double }, sell, null),
            sell,
            terms,
            f,
            0n,
          ),
        );
      checkBracketPrices(entry, legs);
      return { ...base, state: 'pending', legs };
    }
    case 'roll':
      return {
        ...base,
        state: 'armed',
        legs: [],
        roll: {
          quotes: d.quotes.map(rollQuoteOf),
          step: requoteStepOf(d.requoteStep),
          round: 0,
          slots: [],
          noticed: [],
          epochs: d.epochs ?? null,
          placedEpochs: 0,
          lastEpoch: null,
          resting: [],
          held: null,
        },
      };
  }
}

/** A bracket's take-profit beyond its entry and its stop short of it: the other way round is a typo, not a bracket. */
function checkBracketPrices(entry: LimitLeg, legs: readonly (ExitLeg | LimitLeg)[]): void {
  for (const l of legs) {
    if (l.type !== 'exit' || (l.trigger.type !== 'take-profit' && l.trigger.type !== 'stop')) continue;
    const above = l.trigger.price > entry.price;
    const below = l.trigger.price < entry.price;
    const wanted = l.trigger.type === 'take-profit' ? (entry.sell ? below : above) : entry.sell ? above : below;
    if (!wanted)
      throw new BridgeFailure(
        'working.bracket_prices',
        `A ${entry.sell ? 'sell' : 'buy'} entry at ${formatCents(entry.price)} needs its ${l.trigger.type === 'stop' ? 'stop' : 'take-profit'} ${(l.trigger.type === 'take-profit') !== entry.sell ? 'above' : 'below'} it.`,
      );
  }
}

/** Why a leg can no longer be changed, in the words of its state. */
const NOT_EDITABLE: Readonly<Record<'firing' | 'done' | 'cancelled', string>> = {
  firing: 'That leg has fired and its order is on its way, so it can no longer be changed.',
  done: 'That leg has finished, so it can no longer be changed.',
  cancelled: 'That leg was cancelled, so it can no longer be changed.',
};

/**
 * An edit applied to a copy of a record that has not fired (the caller keeps the copy only when it
 * all parsed): one leg's trigger moved, its sending terms changed, or a roll's quotes replaced. Each
 * value is parsed by create's own rules and the result checked as create checks it, so an edit never
 * makes what create would refuse.
 */
export function applyEdit(o: WorkingOrder, e: WorkingOrderEdit, strike: bigint | null, inventory: bigint): void {
  if (e.quotes || e.requoteStep !== undefined) {
    if (!o.roll) throw new BridgeFailure('working.not_editable', 'Only a roll has quotes to change.');
    if (e.quotes) o.roll.quotes = e.quotes.map(rollQuoteOf);
    if (e.requoteStep !== undefined) o.roll.step = requoteStepOf(e.requoteStep);
    return;
  }
  // Unnamed, the leg is the only trigger still armed (a bracket left with one exit has one).
  const candidates = o.legs.filter((l) =>
    e.leg === undefined ? l.type === 'exit' && (l.state === 'armed' || l.state === 'idle') : l.id === e.leg,
  );
  if (candidates.length !== 1)
    throw new BridgeFailure(
      'working.which_leg',
      e.leg !== undefined
        ? 'That leg is not part of this working order.'
        : candidates.length === 0
          ? 'This working order has no trigger left to change.'
          : 'This working order has more than one leg: say which one to change.',
    );
  const leg = candidates[0]!;
  if (leg.type !== 'exit')
    throw new BridgeFailure(
      'working.not_editable',
      'A resting leg is an order on the exchange: cancel that leg and add it again to change it.',
    );
  if (leg.state !== 'armed' && leg.state !== 'idle')
    throw new BridgeFailure('working.not_editable', NOT_EDITABLE[leg.state]);
  // An exit or an OCO's exit leg is attached to the position, as create requires; a bracket's to its entry.
  if (o.kind !== 'bracket' && closable(inventory, leg.sell) === 0n)
    throw new BridgeFailure(
      'working.no_position',
      'The position this exit closes is gone, so there is nothing to change.',
    );
  const t = leg.trigger;
  if (e.price !== undefined) {
    if (t.type !== 'take-profit' && t.type !== 'stop')
      throw new BridgeFailure('working.not_editable', 'Only a take-profit or stop has a contract price to move.');
    t.price = priceOf(e.price, t.type === 'stop' ? 'The stop price' : 'The take-profit price');
  }
  if (e.double !== undefined && (t.type === 'take-profit' || t.type === 'stop')) t.double = e.double;
  if (e.level !== undefined) {
    if (t.type !== 'oracle-stop')
      throw new BridgeFailure('working.not_editable', 'Only an oracle stop has an oracle level.');
    Object.assign(t, oracleLevel(e.level, strike));
  }
  if (e.secondsBeforeEnd !== undefined) {
    if (t.type !== 'time-exit')
      throw new BridgeFailure('working.not_editable', 'Only a time exit has a time before the end.');
    t.secondsBeforeEnd = e.secondsBeforeEnd;
  }
  if (e.size !== undefined) leg.size = e.size === null ? null : sizeOf(e.size, 'The exit size');
  if (e.slippage !== undefined) leg.slippage = slippageOf(e.slippage);
  if (e.retries !== undefined) leg.retries = e.retries;
  const entry =
    o.kind === 'bracket' ? o.legs.find((l): l is LimitLeg => l.type === 'limit' && l.role === 'entry') : undefined;
  if (entry) checkBracketPrices(entry, [leg]);
  // A moved trigger is armed afresh: the double count starts again from the next quote.
  leg.through = 0;
  leg.lastQuote = null;
}
