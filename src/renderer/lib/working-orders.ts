/**
 * Working orders in the window (docs/working-orders.md): main keeps and runs them, and sends the
 * whole list whenever one changes (the `workingOrders` event). This module holds that list, words
 * each one for people with the window's formatters, picks what the ladder and the charts draw, and
 * sends the window's requests (create, edit, cancel), showing main's sentence when one is refused.
 */
import { get, writable } from 'svelte/store';
import type {
  BridgeArgs,
  BridgeMethod,
  BridgeResult,
  ExitTriggerDraft,
  MarketRef,
  OrderTicket,
  RollQuoteDraft,
  RollQuoteLive,
  SignAs,
  WorkingLegView,
  WorkingOrderDraft,
  WorkingOrderEdit,
  WorkingOrderView,
} from '../../shared/bridge';
import { MAX_PRICE, MIN_PRICE } from '../../shared/protocol/constants';
import type { Settings } from '../../shared/settings-schema';
import { DEFAULT_WORKING_DEFAULTS, type WorkingDefaults } from '../../shared/working-defaults';
import { attempt, type Attempt } from './attempt';
import { centsInputToPrice, formatOracle, formatPrice, formatSize, priceToCentsInput } from './format';
import { pushNotice } from './notices';
import { marketName, settings } from './terminal';
import { workingOrders } from './working-list';

export { workingOrders };

/**
 * The default bracket rides on the next order (the hotkey or the ticket's Bracket switch): that
 * order goes to main as a bracket, then this turns itself off.
 */
export const nextBracket = writable(false);

/** One sentence the UI shows wherever a working order is made: they need this app running. */
export const RUNS_WHILE_OPEN =
  'Working orders run only while this app is open and unlocked: closed, locked or offline, nothing fires.';

export function isRunning(o: Pick<WorkingOrderView, 'state'>): boolean {
  return o.state === 'pending' || o.state === 'armed' || o.state === 'firing';
}

/** The running working orders of one market's epoch. */
export function workingIn(list: readonly WorkingOrderView[], market: MarketRef): WorkingOrderView[] {
  return list.filter((o) => isRunning(o) && o.assetId === market.assetId && o.epoch === market.epoch);
}

const EXIT_TYPES: ReadonlySet<WorkingLegView['type']> = new Set(['take-profit', 'stop', 'oracle-stop', 'time-exit']);

/** A leg still working: armed (or waiting for its entry), or resting on the exchange. */
export function legLive(leg: Pick<WorkingLegView, 'state'>): boolean {
  return leg.state === 'armed' || leg.state === 'idle' || leg.state === 'resting';
}

/** The legs that close the position in a market (exits of its own, a bracket's take-profit and stop), with their orders. */
export function exitLegs(
  list: readonly WorkingOrderView[],
  market: MarketRef,
): { order: WorkingOrderView; leg: WorkingLegView }[] {
  return workingIn(list, market).flatMap((order) =>
    order.legs
      // A leg cancelled alone is gone from the position's exits; a fired one shows until its order ends.
      .filter((leg) => EXIT_TYPES.has(leg.type) && (legLive(leg) || leg.state === 'firing'))
      .map((leg) => ({ order, leg })),
  );
}

/**
 * Whether one leg can be cancelled alone: a live leg of an OCO or a bracket with another live leg.
 * The last one left is cancelled with its order (main would end it anyway).
 */
export function legCancellable(
  o: Pick<WorkingOrderView, 'kind' | 'state' | 'legs'>,
  leg: Pick<WorkingLegView, 'state'>,
): boolean {
  if ((o.kind !== 'oco' && o.kind !== 'bracket') || !isRunning(o) || !legLive(leg)) return false;
  return o.legs.filter(legLive).length > 1;
}

// ------------------------------------------------------------------ words

const LEG_NAMES: Readonly<Record<WorkingLegView['type'], string>> = {
  'take-profit': 'Take-profit',
  stop: 'Stop',
  'oracle-stop': 'Oracle stop',
  'time-exit': 'Time exit',
  limit: 'Limit',
  entry: 'Entry',
  quote: 'Quote',
};

export function legName(type: WorkingLegView['type']): string {
  return LEG_NAMES[type];
}

/** The letters a take-profit or stop is drawn with on the ladder and the contract chart. */
const shortName = (type: 'take-profit' | 'stop'): string => (type === 'take-profit' ? 'TP' : 'SL');

/**
 * What a working order is, as a trader calls it: an exit by its trigger, else its kind. An OCO or a
 * bracket left with one exit leg (the other cancelled alone) is that plain exit now, and named so.
 */
export function kindName(o: Pick<WorkingOrderView, 'kind' | 'legs'>): string {
  if (o.kind === 'exit') return o.legs[0] ? legName(o.legs[0].type) : 'Exit';
  const live = o.legs.filter(legLive);
  if (o.legs.length > 1 && live.length === 1 && EXIT_TYPES.has(live[0]!.type)) return legName(live[0]!.type);
  return o.kind === 'oco' ? 'OCO' : o.kind === 'bracket' ? 'Bracket' : 'Roll';
}

/** A leg's own Cancel, for people and screen readers: "Cancel stop leg". */
export function cancelLegLabel(leg: Pick<WorkingLegView, 'type'>): string {
  return `Cancel ${legName(leg.type).toLowerCase()} leg`;
}

/** How much an exit sends: a size, what a bracket's fills armed, or the whole position. */
function exitSize(leg: WorkingLegView): string {
  if (leg.armed !== null) return leg.armed === '0' ? 'nothing armed yet' : `${formatSize(leg.armed)} armed`;
  return leg.size === null ? 'the whole position' : formatSize(leg.size);
}

/** One leg's trigger and what it sends: "Take-profit at 50.0¢ → sell the whole position". */
export function legText(leg: WorkingLegView): string {
  const name = legName(leg.type);
  switch (leg.type) {
    case 'take-profit':
    case 'stop':
      return `${name} at ${formatPrice(leg.price)}${leg.double ? ' (two quotes through)' : ''} → ${leg.side} ${exitSize(leg)}`;
    case 'oracle-stop':
      return `${name}: oracle ${leg.direction === 'above' ? 'at or above' : 'at or below'} ${formatOracle(leg.oracleLevel)} → ${leg.side} ${exitSize(leg)}`;
    case 'time-exit':
      return `${name} ${leg.secondsBeforeEnd ?? '?'} s before the end → ${leg.side} ${exitSize(leg)}`;
    case 'limit':
    case 'entry':
    case 'quote': {
      const filled = leg.filled !== '0' ? ` (${formatSize(leg.filled)} filled)` : '';
      return `${name}: ${leg.side} ${formatSize(leg.size)} at ${formatPrice(leg.price)}${filled}`;
    }
  }
}

/** A roll quote's price rule: "fair−2.0¢", "fair+1.5¢", "fair", or a fixed "70.0¢". */
function rollPriceRule(q: RollQuoteDraft): string {
  if (q.price.from === 'fixed') return formatPrice(centsInputToPrice(q.price.price));
  const typed = q.price.offset.trim();
  const negative = typed.startsWith('-');
  const abs = centsInputToPrice(typed.replace(/^[+-]/, ''));
  if (abs === null) return /^[+-]?0*(\.0*)?$/.test(typed) ? 'fair' : `fair ${typed}¢`;
  return `fair${negative ? '−' : '+'}${formatPrice(abs)}`;
}

/**
 * One roll quote and where it is now: "bid 5 fair−2.0¢ → 47.5¢" (resting there), with its target
 * when fair value has moved it ("→ 47.5¢, target 48.0¢"), or why it is not on the book.
 */
export function rollQuoteText(q: RollQuoteDraft, live?: RollQuoteLive): string {
  const name = `${q.side === 'sell' ? 'ask' : 'bid'} ${q.size} ${rollPriceRule(q)}`;
  if (!live) return name;
  const filled = live.filled !== '0' ? `, ${formatSize(live.filled)} filled` : '';
  const target = live.target !== null ? formatPrice(live.target) : null;
  switch (live.state) {
    case 'resting': {
      const moving = target !== null && live.target !== live.resting ? `, target ${target}` : '';
      return `${name} → ${formatPrice(live.resting)}${moving}${filled}`;
    }
    case 'placing':
      return `${name} → placing at ${target ?? formatPrice(live.resting)}${filled}`;
    case 'filled':
      return `${name} → filled`;
    case 'off':
      return `${name} → off the book${target !== null ? ` (target ${target})` : ''}${filled}`;
    case 'lost':
      return `${name} → not known (check Open orders)${filled}`;
  }
}

/** A roll's re-quote step in words, for its row. */
export function rollStepText(step: string): string {
  return `re-quoted when its target moves ${formatPrice(step)} or more (at most every 2 s)`;
}

/** The state in words, for the table's State column. */
export function stateWord(o: Pick<WorkingOrderView, 'state' | 'kind'>): string {
  switch (o.state) {
    case 'pending':
      return o.kind === 'roll' ? 'running' : 'waiting for its entry';
    case 'armed':
      // A roll is armed from its first placement on: to a trader it is running, not waiting to fire.
      return o.kind === 'roll' ? 'running' : 'armed';
    case 'firing':
      return 'firing';
    case 'done':
      return 'done';
    case 'stopped':
      return 'stopped';
  }
}

/**
 * Why it waits, or how it ended, in main's words; for a running order with nothing holding it,
 * what the last try said (an exit retrying), else null.
 */
export function whyText(o: WorkingOrderView): string | null {
  const said = o.waiting ?? o.reason;
  if (said) return said.charAt(0).toUpperCase() + said.slice(1);
  const last = o.legs.flatMap((l) => l.attempts).sort((a, b) => b.at - a.at)[0];
  return last ? last.note : null;
}

// ------------------------------------------------------------------ what the ladder and charts draw

/** A contract-price trigger on the ladder: a take-profit or stop leg that has not fired. */
export interface LadderMark {
  /** `${order}:${leg}`: one mark per leg. */
  readonly key: string;
  readonly orderId: string;
  readonly legId: string;
  readonly type: 'take-profit' | 'stop';
  readonly price: bigint;
  /** The side it sends: its mark sits in that side's Mine column. */
  readonly side: 'buy' | 'sell';
  /** Watching now (false: a bracket's exit before its entry fills). */
  readonly armed: boolean;
  /** One of several live legs of a bracket or OCO: cancelling it cancels this leg alone, the rest keeps working. */
  readonly grouped: boolean;
  /** The two letters drawn ("TP", "SL"), and the full sentence for the title and screen readers. */
  readonly short: string;
  readonly title: string;
}

export function ladderMarks(orders: readonly WorkingOrderView[]): LadderMark[] {
  const marks: LadderMark[] = [];
  for (const o of orders) {
    if (!isRunning(o)) continue;
    for (const leg of o.legs) {
      if ((leg.type !== 'take-profit' && leg.type !== 'stop') || leg.price === null) continue;
      if (leg.state !== 'idle' && leg.state !== 'armed') continue;
      const grouped = o.kind !== 'exit' && o.legs.filter(legLive).length > 1;
      const cancels = grouped ? `this leg alone, keeping the rest of the ${kindName(o).toLowerCase()}` : 'it';
      marks.push({
        key: `${o.id}:${leg.id}`,
        orderId: o.id,
        legId: leg.id,
        type: leg.type,
        price: BigInt(leg.price),
        side: leg.side,
        armed: leg.state === 'armed',
        grouped,
        short: shortName(leg.type),
        title: `${legText(leg)}${leg.state === 'idle' ? ', armed when the entry fills' : ''}. Drag to move it; click to cancel ${cancels}.`,
      });
    }
  }
  return marks;
}

/** A horizontal line on the contract chart (cents) or the oracle chart (dollars). */
export interface ChartLevel {
  readonly key: string;
  /** Micro-dollars: a contract price, or an oracle price. */
  readonly price: string;
  readonly title: string;
  readonly tone: 'up' | 'down' | 'warn';
}

/** The contract chart's lines: every take-profit, stop and resting leg with a price. */
export function contractLevels(orders: readonly WorkingOrderView[]): ChartLevel[] {
  const lines: ChartLevel[] = [];
  for (const o of orders) {
    if (!isRunning(o)) continue;
    for (const leg of o.legs) {
      if (leg.price === null || leg.type === 'oracle-stop' || leg.type === 'time-exit') continue;
      if (leg.state === 'done' || leg.state === 'cancelled' || leg.state === 'filled') continue;
      const tone = leg.type === 'take-profit' ? 'up' : leg.type === 'stop' ? 'down' : 'warn';
      const title =
        leg.type === 'take-profit' || leg.type === 'stop' ? shortName(leg.type) : legName(leg.type).toLowerCase();
      lines.push({ key: `${o.id}:${leg.id}`, price: leg.price, title, tone });
    }
  }
  return lines;
}

/** The oracle chart's lines: each running oracle stop's level. */
export function oracleLevels(orders: readonly WorkingOrderView[]): ChartLevel[] {
  const lines: ChartLevel[] = [];
  for (const o of orders) {
    if (!isRunning(o)) continue;
    for (const leg of o.legs) {
      if (leg.type !== 'oracle-stop' || leg.oracleLevel === null) continue;
      if (leg.state !== 'idle' && leg.state !== 'armed') continue;
      lines.push({ key: `${o.id}:${leg.id}`, price: leg.oracleLevel, title: 'oracle stop', tone: 'down' });
    }
  }
  return lines;
}

// ------------------------------------------------------------------ drafts

/** The default bracket's take-profit and stop for an entry: its price ± the defaults, kept inside 0.1–99.9¢. */
export function bracketPrices(
  side: 'buy' | 'sell',
  entryCents: string,
  defaults: Pick<WorkingDefaults, 'takeProfitCents' | 'stopCents'>,
): { takeProfit: string; stop: string } | null {
  const entry = centsInputToPrice(entryCents);
  const tp = centsInputToPrice(defaults.takeProfitCents);
  const sl = centsInputToPrice(defaults.stopCents);
  if (entry === null || tp === null || sl === null) return null;
  const clamp = (p: bigint): bigint => (p < MIN_PRICE ? MIN_PRICE : p > MAX_PRICE ? MAX_PRICE : p);
  const up = side === 'buy' ? 1n : -1n;
  return {
    takeProfit: priceToCentsInput(clamp(entry + up * tp)),
    stop: priceToCentsInput(clamp(entry - up * sl)),
  };
}

/** The defaults in force: pass `$settings` to follow them in a component, else they are read now. */
export function workingDefaults(s: Settings | null = get(settings)): WorkingDefaults {
  return s?.workingDefaults ?? DEFAULT_WORKING_DEFAULTS;
}

// ------------------------------------------------------------------ requests

/** Sends a request: main's answer, or its sentence why not, which is also shown as a notice. */
async function request<M extends BridgeMethod>(method: M, ...args: BridgeArgs<M>): Promise<Attempt<BridgeResult<M>>> {
  const r = await attempt(method, ...args);
  if (!r.ok) pushNotice('error', r.message);
  return r;
}

/** Adopts the answer at once (the event follows): the list shows what main said without waiting. */
function adopt(view: WorkingOrderView): void {
  workingOrders.update((list) =>
    list.some((o) => o.id === view.id) ? list.map((o) => (o.id === view.id ? view : o)) : [view, ...list],
  );
}

async function createWorking(draft: WorkingOrderDraft): Promise<Attempt<WorkingOrderView>> {
  const r = await request('workingOrders.create', draft);
  if (r.ok) adopt(r.value);
  return r;
}

export async function editWorking(edit: WorkingOrderEdit): Promise<Attempt<WorkingOrderView>> {
  const r = await request('workingOrders.edit', edit);
  if (r.ok) adopt(r.value);
  return r;
}

/** Cancels a working order, or only one leg of it (`leg`, its id): main ends the order when it was the last. */
export async function cancelWorking(id: string, leg?: string): Promise<Attempt<WorkingOrderView>> {
  const named =
    leg === undefined
      ? undefined
      : get(workingOrders)
          .find((o) => o.id === id)
          ?.legs.find((l) => l.id === leg);
  const r = await request('workingOrders.cancel', leg === undefined ? { id } : { id, leg });
  if (r.ok) {
    adopt(r.value);
    pushNotice('info', `${r.value.market}: ${cancelledText(r.value, named)}.`);
  }
  return r;
}

/** What a cancel did, in words: the order, or one leg and whether the rest works on. */
export function cancelledText(after: WorkingOrderView, leg?: Pick<WorkingLegView, 'type'>): string {
  if (!leg) return `${kindName(after).toLowerCase()} cancelled`;
  const name = legName(leg.type).toLowerCase();
  if (!isRunning(after))
    return `${name} cancelled; that was its last leg, so the ${kindName(after).toLowerCase()} ended`;
  return `${name} cancelled; the ${kindName(after).toLowerCase()} keeps working`;
}

/** Cancels every running working order (of one market when given), and says how many. */
export async function cancelAllWorking(market?: MarketRef): Promise<void> {
  const r = await request('workingOrders.cancelAll', market ?? {});
  if (!r.ok) return;
  for (const v of r.value) adopt(v);
  const n = r.value.length;
  const where = market ? `${marketName(market.assetId, market.epoch)}: ` : '';
  pushNotice(
    'info',
    `${where}${n === 0 ? 'no working orders to cancel' : `${n} working ${n === 1 ? 'order' : 'orders'} cancelled`}.`,
  );
}

/** Attaches an exit to the position in a market: take-profit, stop, oracle stop or time exit. */
export async function attachExit(
  market: MarketRef,
  signAs: SignAs,
  trigger: ExitTriggerDraft,
): Promise<Attempt<WorkingOrderView>> {
  const r = await createWorking({ kind: 'exit', ...market, signAs, trigger });
  if (r.ok)
    pushNotice('success', `${r.value.market}: ${r.value.legs[0] ? legText(r.value.legs[0]) : 'exit attached'}.`);
  return r;
}

/** One quote of the roll form as typed: a side, fair ± cents or a fixed price in cents, a size. */
export interface RollQuoteTyped {
  side: 'buy' | 'sell';
  from: 'fair' | 'fixed';
  /** Cents: the offset from fair value (signed), or the fixed price. */
  cents: string;
  size: string;
}

/** The form's first quotes: a bid a cent under fair value and an ask a cent over, of the default size. */
export function defaultRollQuotes(size = '10'): RollQuoteTyped[] {
  return [
    { side: 'buy', from: 'fair', cents: '-1', size },
    { side: 'sell', from: 'fair', cents: '+1', size },
  ];
}

/**
 * The roll draft of the form's fields, as typed (main parses prices and sizes and says what is wrong
 * in a sentence), or the sentence for an epoch count that is not a whole number.
 */
export function rollDraft(
  assetId: string,
  signAs: SignAs,
  quotes: readonly RollQuoteTyped[],
  epochs: string,
  requoteStep: string,
): WorkingOrderDraft | string {
  const n = epochs.trim();
  if (n !== '' && !/^[1-9]\d{0,3}$/.test(n))
    return 'Epochs: a whole number from 1 to 9999, or empty to run until you stop it.';
  return {
    kind: 'roll',
    assetId,
    signAs,
    quotes: quotes.map((q) => ({
      side: q.side,
      size: q.size.trim(),
      price: q.from === 'fair' ? { from: 'fair', offset: q.cents.trim() } : { from: 'fixed', price: q.cents.trim() },
    })),
    ...(n === '' ? {} : { epochs: Number(n) }),
    ...(requoteStep.trim() === '' ? {} : { requoteStep: requoteStep.trim() }),
  };
}

/** Starts a roll: main re-places its quotes in each epoch of the market until it is stopped. */
export async function startRoll(draft: WorkingOrderDraft): Promise<Attempt<WorkingOrderView>> {
  const r = await createWorking(draft);
  if (r.ok) pushNotice('success', `${r.value.market}: roll started; its quotes go in each epoch until you stop it.`);
  return r;
}

/** The flatten-before-expiry hotkey: a time exit on the market, the default seconds before its end. */
export function attachTimeExit(market: MarketRef, signAs: SignAs): Promise<Attempt<WorkingOrderView>> {
  return attachExit(market, signAs, { type: 'time-exit', secondsBeforeEnd: workingDefaults().timeExitSeconds });
}

/**
 * Sends an order with the default bracket attached: main places the entry and arms its take-profit
 * and stop as it fills. A bracket's entry rests (GTC) or takes what it can (IOC); a post-only join
 * rests as GTC. Turns `nextBracket` off once main has it; a refusal leaves it on, the ticket as typed.
 */
export async function placeBracket(order: OrderTicket): Promise<boolean> {
  const name = marketName(order.assetId, order.epoch);
  if (order.timeInForce === 'FOK') {
    pushNotice(
      'warning',
      `${name}: a bracket’s entry is GTC or IOC, not FOK: change the time in force and send again.`,
    );
    return false;
  }
  const prices = bracketPrices(order.side, order.price, workingDefaults());
  if (!prices) {
    pushNotice('warning', `${name}: the bracket needs a price for its entry in cents, such as 45.5.`);
    return false;
  }
  const r = await createWorking({
    kind: 'bracket',
    assetId: order.assetId,
    epoch: order.epoch,
    signAs: order.signAs,
    entry: {
      side: order.side,
      price: order.price,
      size: order.size,
      timeInForce: order.timeInForce === 'IOC' ? 'IOC' : 'GTC',
    },
    takeProfit: prices.takeProfit,
    stop: prices.stop,
  });
  if (!r.ok) return false;
  nextBracket.set(false);
  const legs = r.value.legs.filter((l) => l.type !== 'entry').map((l) => legText(l).split(' → ')[0]);
  pushNotice(
    'success',
    `${name}: bracket sent: ${order.side} ${order.size} at ${formatPrice(centsInputToPrice(order.price))}, ${legs.join(', ').toLowerCase()}, armed as the entry fills.`,
  );
  return true;
}
