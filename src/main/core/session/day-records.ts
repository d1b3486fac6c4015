/**
 * Today's own fills, order history and positions of an account on a deployment, kept in main's store
 * so a restart keeps the day (docs/position-accounting.md#what-survives-a-restart). The exchange has
 * no route for an order's outcome and (outside the devnet) none for own fills, and the desk re-reads
 * positions only of the epochs trading now: without these records a restart showed no fills, no
 * history and only the live epochs' realised P&L.
 *
 * Bounded: today's entries only (the UTC day, as the loss budget counts it), a cap per list, a few
 * accounts. Parsed with zod when read: a damaged or edited record is ignored, never half-trusted.
 * Writes are gathered (at most one a second): the desk hands a function that makes the records, so a
 * busy session does not build them per fill; a session that stops writes what is pending.
 */
import { z } from 'zod';
import type { FillView, OrderHistoryEntry } from '../../../shared/bridge';
import { fillView } from '../../../shared/bridge/account';
import { orderHistoryEntry } from '../../../shared/bridge/activity';
import { signedDecimalString } from '../../../shared/bridge/primitives';
import type { KeyValueStore } from '../../store/key-value-store';
import { ORDER_HISTORY_LIMIT } from './order-history';

export const DAY_RECORDS_KEY = 'dayRecords';
/** Fills kept per account and day, newest. */
export const DAY_FILLS_KEPT = 1_000;
/** Order-history entries kept per account and day, newest placed (what the desk itself keeps). */
export const DAY_HISTORY_KEPT = ORDER_HISTORY_LIMIT;
/** Positions kept per account and day. */
export const DAY_POSITIONS_KEPT = 128;
/**
 * Accounts that are not keys in the vault (watched, looked at) whose day is kept; the one saved longest
 * ago goes first. A vault key's record is never dropped for another's (the vault bounds how many there
 * are): a window that selects watch-only accounts must not push out the records a restart reads back to
 * find the markets and accounts the loss ledger keeps watching.
 */
export const DAY_ACCOUNTS_KEPT = 6;
/** How long a change waits before the store is written (changes meanwhile are written together). */
export const DAY_WRITE_DELAY_MS = 1_000;

const DAY_MS = 86_400_000;

/** A fill as kept: what the window shows, and for a maker fill the feed's sequence id (its key with the order id). */
export type DayFill = FillView & { seq?: string };

/** A position as last seen (signed amounts, the exchange's units). */
export interface DayPosition {
  assetId: string;
  epoch: string;
  size: string;
  inventory: string;
  margin: string;
  realisedPnl: string;
}

export interface DayRecords {
  fills: DayFill[];
  history: OrderHistoryEntry[];
  positions: DayPosition[];
}

/** What a session's account desk is given: one deployment's records, by account. */
export interface DayRecordsPort {
  /** Today's records of `account` (empty lists when none are kept). */
  load(account: string): DayRecords;
  /**
   * The records of `account` changed: `records` makes them when the store is next written (null: the
   * desk no longer holds that account, nothing to write).
   */
  save(account: string, records: () => DayRecords | null): void;
  /** Writes what is pending now (before the desk drops an account's state). */
  flush(): void;
}

const decimal = /^(0|[1-9][0-9]{0,77})$/;
const dayFillShape = fillView.extend({ seq: z.string().regex(decimal).optional() });
const dayPositionShape = z.strictObject({
  assetId: z.string().regex(decimal),
  epoch: z.string().regex(decimal),
  size: signedDecimalString,
  inventory: signedDecimalString,
  margin: signedDecimalString,
  realisedPnl: signedDecimalString,
});
const recordShape = z.strictObject({
  deployment: z.string().min(1).max(160),
  account: z.string().regex(/^0x[0-9a-f]{40}$/),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  fills: z.array(dayFillShape).max(DAY_FILLS_KEPT),
  history: z.array(orderHistoryEntry).max(DAY_HISTORY_KEPT),
  positions: z.array(dayPositionShape).max(DAY_POSITIONS_KEPT),
});
type StoredRecord = z.infer<typeof recordShape>;

export interface DayRecordStoreOptions {
  now?: () => number;
  /** Whether the account is a key in the vault (its record is kept whatever else is saved). */
  signs?: (account: string) => boolean;
  /** 0 writes at once (tests). */
  writeDelayMs?: number;
}

interface Pending {
  deployment: string;
  account: string;
  records: () => DayRecords | null;
}

export class DayRecordStore {
  readonly #store: KeyValueStore;
  readonly #now: () => number;
  readonly #delayMs: number;
  readonly #signs: (account: string) => boolean;
  #records: StoredRecord[];
  readonly #pending = new Map<string, Pending>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped per deployment id when its records are forgotten: ports made before write nothing more. */
  readonly #generation = new Map<string, number>();

  constructor(store: KeyValueStore, opts: DayRecordStoreOptions = {}) {
    this.#store = store;
    this.#now = opts.now ?? Date.now;
    this.#delayMs = opts.writeDelayMs ?? DAY_WRITE_DELAY_MS;
    this.#signs = opts.signs ?? (() => false);
    const raw = store.get(DAY_RECORDS_KEY);
    // Each record on its own: a damaged one is dropped, the others kept.
    this.#records = Array.isArray(raw)
      ? raw.flatMap((r) => {
          const parsed = recordShape.safeParse(r);
          return parsed.success ? [parsed.data] : [];
        })
      : [];
  }

  /** The records of one deployment (its id and chain: another chain under the same id is another exchange). */
  port(deployment: { id: string; chainId: string }): DayRecordsPort & { close(): void } {
    const key = `${deployment.id}:${deployment.chainId}`;
    const generation = this.#generation.get(deployment.id) ?? 0;
    let closed = false;
    const live = (): boolean => !closed && (this.#generation.get(deployment.id) ?? 0) === generation;
    return {
      load: (account) => (live() ? this.load(key, account) : { fills: [], history: [], positions: [] }),
      save: (account, records) => {
        if (live()) this.#queue({ deployment: key, account: account.toLowerCase(), records });
      },
      flush: () => this.flush(),
      close: () => {
        if (closed) return;
        this.flush();
        closed = true;
      },
    };
  }

  /** Today's records of an account on a deployment (`id:chainId`), today's entries only. */
  load(deployment: string, account: string): DayRecords {
    const acct = account.toLowerCase();
    const found = this.#records.find((r) => r.deployment === deployment && r.account === acct);
    if (!found || found.day !== this.#today().name) return { fills: [], history: [], positions: [] };
    const kept = this.#todays(found);
    return structuredClone({ fills: kept.fills, history: kept.history, positions: kept.positions });
  }

  /** A deployment starts over (practice reset): its records go, and its ports write nothing more. */
  forget(deploymentId: string): void {
    this.#generation.set(deploymentId, (this.#generation.get(deploymentId) ?? 0) + 1);
    for (const [k, p] of this.#pending) if (p.deployment.startsWith(`${deploymentId}:`)) this.#pending.delete(k);
    const before = this.#records.length;
    this.#records = this.#records.filter((r) => !r.deployment.startsWith(`${deploymentId}:`));
    if (this.#records.length !== before) this.#write();
  }

  /** Writes every pending change now. */
  flush(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pending.size === 0) return;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    const day = this.#today().name;
    let changed = false;
    for (const p of pending) {
      const made = p.records();
      // Nothing to keep (an account only looked at): no record, and no slot taken from one that has some.
      if (!made || (made.fills.length === 0 && made.history.length === 0 && made.positions.length === 0)) continue;
      const record = this.#todays({ deployment: p.deployment, account: p.account, day, ...structuredClone(made) });
      // The record saved last goes to the end: the one saved longest ago is the first dropped.
      this.#records = [
        ...this.#records.filter((r) => r.deployment !== p.deployment || r.account !== p.account),
        record,
      ];
      changed = true;
    }
    if (changed) this.#write();
  }

  #queue(p: Pending): void {
    this.#pending.set(`${p.deployment}|${p.account}`, p);
    if (this.#delayMs <= 0) return this.flush();
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.flush();
    }, this.#delayMs);
    this.#timer.unref?.();
  }

  /** Only today's records into the store: every vault key's, and the newest DAY_ACCOUNTS_KEPT of the others. */
  #write(): void {
    const day = this.#today().name;
    const today = this.#records.filter((r) => r.day === day);
    const others = today.filter((r) => !this.#signs(r.account)).slice(-DAY_ACCOUNTS_KEPT);
    this.#records = today.filter((r) => this.#signs(r.account) || others.includes(r));
    try {
      this.#store.set(DAY_RECORDS_KEY, this.#records);
    } catch {
      // A store that cannot be written (a full disk) loses the records, never the session.
    }
  }

  /** A record with today's entries only, each list within its cap (newest kept). */
  #todays(r: StoredRecord): StoredRecord {
    const { from } = this.#today();
    // A fill of unknown time (0) was kept by a session running today.
    const fills = r.fills.filter((f) => f.at === 0 || f.at >= from).slice(-DAY_FILLS_KEPT);
    const history = r.history.filter((h) => h.updatedAt >= from).slice(0, DAY_HISTORY_KEPT);
    return { ...r, fills, history, positions: r.positions.slice(-DAY_POSITIONS_KEPT) };
  }

  #today(): { name: string; from: number } {
    const from = Math.floor(this.#now() / DAY_MS) * DAY_MS;
    return { name: new Date(from).toISOString().slice(0, 10), from };
  }
}
