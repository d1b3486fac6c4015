/**
 * Today's loss budget per account (docs/risk-guards.md#daily-loss-limit). The day is the UTC day.
 * The first time the gate sees an account on a day it writes down the equity at fair value as the
 * day's start; money that arrives or leaves moves that baseline, so it is never counted as profit or
 * loss: deposits and withdrawals made through the app as they are made, and any made elsewhere as
 * they are seen while the account holds nothing at risk (observeFlat). Today's loss is what equity at
 * fair value has fallen below it. Kept in main's store, so a restart does not hand out a fresh
 * budget; a key in the vault, and any account an order was passed for today (a watch-only master
 * traded through an agent key of this vault), keeps its day's record whatever else is looked at.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../../store/key-value-store';

const STORE_KEY = 'riskDays';
/**
 * Records kept of accounts that are not keys in the vault (watched, looked at); the oldest is dropped
 * first. A vault key's record is never dropped for another's: the vault bounds how many there are.
 */
const OTHERS_KEPT = 64;
/**
 * Records kept of accounts that are not vault keys but traded from here today (a watch-only master
 * whose agent key is in the vault): each needs a master's approval of an agent of this vault, so there
 * are few; bounded all the same, the oldest dropped first.
 */
const TRADED_KEPT = 256;

const recordShape = z.array(
  z.strictObject({
    account: z.string().regex(/^0x[0-9a-f]{40}$/),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    startEquity: z.string().regex(/^-?\d{1,30}$/),
    transfers: z.string().regex(/^-?\d{1,30}$/),
    traded: z.literal(true).optional(),
  }),
);

export interface DayRecord {
  account: string;
  day: string;
  /** Equity at fair value when the day's first order was checked (units of 10^-6 dollars). */
  startEquity: bigint;
  /** Deposits minus withdrawals made through the app since then. */
  transfers: bigint;
  /** An order was passed for it today: its record is kept as a vault key's is. */
  traded?: true;
}

export interface BudgetStatus {
  day: string;
  startEquity: bigint;
  transfers: bigint;
  /** Today's loss so far, never negative. */
  loss: bigint;
  /** The most today may lose. */
  limit: bigint;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The limit for a day: a fixed amount when the person set one, else basis points of its starting
 * equity (nothing when it started at or below zero).
 */
export function lossLimit(startEquity: bigint, bps: bigint, fixed: bigint | null = null): bigint {
  if (fixed !== null) return fixed;
  return startEquity > 0n ? (startEquity * bps) / 10_000n : 0n;
}

export interface LossBudgetOptions {
  /** Whether the account is a key in the vault (its record is never pushed out by another's). */
  signs?: (account: string) => boolean;
}

const DAY_MS = 86_400_000;

export class LossBudget {
  readonly #store: KeyValueStore;
  readonly #now: () => number;
  #records: DayRecord[];
  /** The UTC day last named and the times it spans, so an order does not format a date. */
  #day = { name: '', from: Infinity, to: -Infinity };
  /** The last status given, with what it was made of: the next order mostly asks the same. */
  #last: {
    account: string;
    record: DayRecord;
    transfers: bigint;
    equity: bigint;
    bps: bigint;
    fixed: bigint | null;
    status: BudgetStatus;
  } | null = null;
  readonly #signs: (account: string) => boolean;
  /** Accounts noteTraded has marked, with the day it did (as given, not lowercased: a cache). */
  readonly #traded = new Map<string, string>();
  /**
   * Per account, its equity when last seen holding nothing at risk, and the activity count then
   * (observeFlat): in memory only, so after a restart the first such sighting starts anew.
   */
  readonly #flat = new Map<string, { equity: bigint; activity: number }>();

  constructor(store: KeyValueStore, now: () => number = Date.now, opts: LossBudgetOptions = {}) {
    this.#store = store;
    this.#now = now;
    this.#signs = opts.signs ?? (() => false);
    const parsed = recordShape.safeParse(store.get(STORE_KEY) ?? []);
    // An edited or damaged record gives no baseline: the next check writes a fresh one.
    this.#records = parsed.success
      ? parsed.data.map((r) => ({ ...r, startEquity: BigInt(r.startEquity), transfers: BigInt(r.transfers) }))
      : [];
  }

  /** Today's record, started now at `equityNow` when the account has none for today. */
  today(account: string, equityNow: bigint): DayRecord {
    const key = account.toLowerCase();
    const day = this.#today();
    const found = this.#records.find((r) => r.account === key);
    if (found && found.day === day) return found;
    const fresh: DayRecord = { account: key, day, startEquity: equityNow, transfers: 0n };
    this.#records = this.#bounded([...this.#records.filter((r) => r.account !== key), fresh]);
    this.#save();
    return fresh;
  }

  /**
   * Every vault key's record, the newest TRADED_KEPT of the accounts traded from here, and the newest
   * OTHERS_KEPT of the rest (oldest first, as kept).
   */
  #bounded(records: DayRecord[]): DayRecord[] {
    const unsigned = records.filter((r) => !this.#signs(r.account));
    const traded = unsigned.filter((r) => r.traded);
    const others = unsigned.filter((r) => !r.traded);
    const dropped = new Set([
      ...traded.slice(0, Math.max(0, traded.length - TRADED_KEPT)),
      ...others.slice(0, Math.max(0, others.length - OTHERS_KEPT)),
    ]);
    return dropped.size === 0 ? records : records.filter((r) => !dropped.has(r));
  }

  /**
   * An order was passed for the account: its record today is kept as a vault key's is, so looking at
   * many other accounts cannot push out the day of one traded through an agent key.
   */
  noteTraded(account: string): void {
    // The hotkey path: an account already marked today is one lookup.
    const day = this.#today();
    const known = this.#traded.get(account);
    if (known === day) return;
    const found = this.peek(account);
    if (!found) return;
    this.#traded.set(account, day);
    if (found.traded || this.#signs(found.account)) return;
    found.traded = true;
    this.#save();
  }

  /** Today's record if one was started, without starting one. */
  peek(account: string): DayRecord | null {
    const found = this.#records.find((r) => r.account === account.toLowerCase());
    return found && found.day === this.#today() ? found : null;
  }

  #today(): string {
    const now = this.#now();
    if (now < this.#day.from || now >= this.#day.to) {
      const from = Math.floor(now / DAY_MS) * DAY_MS;
      this.#day = { name: utcDay(from), from, to: from + DAY_MS };
    }
    return this.#day.name;
  }

  /** A deposit (positive) or withdrawal (negative) made through the app: not a gain or a loss. */
  noteTransfer(account: string, amount: bigint): void {
    // Told here, so not to be taken again from the next flat sighting (whichever comes first, the two agree).
    const flat = this.#flat.get(account.toLowerCase());
    if (flat) flat.equity += amount;
    const found = this.peek(account);
    if (!found) return; // no baseline yet: the next one is taken after the transfer
    found.transfers += amount;
    this.#save();
  }

  /**
   * The account as seen now. `flat`: it holds no position (of a live, ended or unclaimed epoch), no
   * resting order and no order on its way. Between two flat sightings with no order passed in between
   * (`activity` unchanged: the count of reservations the gate took for it), nothing can have traded,
   * so whatever moved its equity is money that arrived or left, wherever that was done: a deposit made
   * on another machine, a devnet or practice credit. It moves the day's baseline, as a deposit through
   * the app does; an account first seen at $0 and funded elsewhere so gets its budget.
   */
  observeFlat(account: string, equity: bigint, flat: boolean, activity: number): void {
    const key = account.toLowerCase();
    if (!flat) {
      this.#flat.delete(key);
      return;
    }
    const before = this.#flat.get(key);
    this.#flat.set(key, { equity, activity });
    if (!before || before.activity !== activity || before.equity === equity) return;
    const found = this.peek(key);
    if (!found) return; // no baseline yet: the day's first one is taken with this money in it
    found.transfers += equity - before.equity;
    this.#save();
  }

  /** Today's loss and limit of an account with equity `equityNow` (shared: read it, do not change it). */
  status(account: string, equityNow: bigint, bps: bigint, fixed: bigint | null = null): Readonly<BudgetStatus> {
    const last = this.#last;
    // The same account, record, transfers, equity and limit give the same status.
    if (
      last !== null &&
      last.account === account &&
      last.equity === equityNow &&
      last.bps === bps &&
      last.fixed === fixed &&
      last.record.day === this.#today() &&
      last.transfers === last.record.transfers &&
      this.#records.includes(last.record)
    )
      return last.status;
    const r = this.today(account, equityNow);
    const fallen = r.startEquity + r.transfers - equityNow;
    const status: BudgetStatus = {
      day: r.day,
      startEquity: r.startEquity,
      transfers: r.transfers,
      loss: fallen > 0n ? fallen : 0n,
      limit: lossLimit(r.startEquity + r.transfers, bps, fixed),
    };
    this.#last = { account, record: r, transfers: r.transfers, equity: equityNow, bps, fixed, status };
    return status;
  }

  #save(): void {
    this.#store.set(
      STORE_KEY,
      this.#records.map((r) => ({ ...r, startEquity: r.startEquity.toString(), transfers: r.transfers.toString() })),
    );
  }
}
