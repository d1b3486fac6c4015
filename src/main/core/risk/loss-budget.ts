/**
 * Today's loss budget per account (docs/risk-guards.md#daily-loss-limit). The day is the UTC day.
 * The first time the gate sees an account on a day it writes down the equity at fair value as the
 * day's start; deposits and withdrawals made through the app move that baseline, so they are never
 * counted as profit or loss. Today's loss is what equity at fair value has fallen below it.
 * Kept in main's store, so a restart does not hand out a fresh budget.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../../store/key-value-store';

const STORE_KEY = 'riskDays';
/** Accounts remembered; the oldest day is dropped first. */
const ACCOUNTS_KEPT = 64;

const recordShape = z.array(
  z.strictObject({
    account: z.string().regex(/^0x[0-9a-f]{40}$/),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    startEquity: z.string().regex(/^-?\d{1,30}$/),
    transfers: z.string().regex(/^-?\d{1,30}$/),
  }),
);

export interface DayRecord {
  account: string;
  day: string;
  /** Equity at fair value when the day's first order was checked (units of 10^-6 dollars). */
  startEquity: bigint;
  /** Deposits minus withdrawals made through the app since then. */
  transfers: bigint;
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

/** The limit for a day: basis points of its starting equity (nothing when it started at or below zero). */
export function lossLimit(startEquity: bigint, bps: bigint): bigint {
  return startEquity > 0n ? (startEquity * bps) / 10_000n : 0n;
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
    status: BudgetStatus;
  } | null = null;

  constructor(store: KeyValueStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
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
    this.#records = [...this.#records.filter((r) => r.account !== key), fresh].slice(-ACCOUNTS_KEPT);
    this.#save();
    return fresh;
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
    const found = this.peek(account);
    if (!found) return; // no baseline yet: the next one is taken after the transfer
    found.transfers += amount;
    this.#save();
  }

  /** Today's loss and limit of an account with equity `equityNow` (shared: read it, do not change it). */
  status(account: string, equityNow: bigint, bps: bigint): Readonly<BudgetStatus> {
    const last = this.#last;
    // The same account, record, transfers, equity and limit give the same status.
    if (
      last !== null &&
      last.account === account &&
      last.equity === equityNow &&
      last.bps === bps &&
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
      limit: lossLimit(r.startEquity + r.transfers, bps),
    };
    this.#last = { account, record: r, transfers: r.transfers, equity: equityNow, bps, status };
    return status;
  }

  #save(): void {
    this.#store.set(
      STORE_KEY,
      this.#records.map((r) => ({ ...r, startEquity: r.startEquity.toString(), transfers: r.transfers.toString() })),
    );
  }
}
