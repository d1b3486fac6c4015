/**
 * Taker fills of the selected account's own orders (maker fills come from the feed via AccountState):
 * at the prices they traded at when the deployment serves GET /fills/:account, else at the order's
 * limit with `priceIsLimit`, since the order answer says only how much filled and trade events name
 * only the maker order (docs/protocol/choices.md#own-fills-and-order-state). Bounded: the newest fills per market, and the newest of all.
 */
import type { FillView } from '../../../shared/bridge';
import type { Address, Hex } from '../../../shared/protocol';
import { ExchangeError, type ExchangeReader, type OwnFillRecord } from '../../../client';
import type { Logger } from '../../log';
import { FILLS_KEPT, FILLS_PER_MARKET_KEPT } from './retention';

/** An own order that filled as taker, as far as the order answer tells. */
export interface TakerOrder {
  assetId: bigint;
  epoch: bigint;
  orderId: Hex;
  side: 'buy' | 'sell';
  limit: bigint;
  filled: bigint;
}

export interface TakerFillsOptions {
  reader: Pick<ExchangeReader, 'getFills'>;
  logger: Logger;
  perMarket?: number;
  total?: number;
}

export class TakerFills {
  readonly #fills: FillView[] = [];
  /** Whether the deployment serves GET /fills/:account: null until asked, false after a 404. */
  #supported: boolean | null = null;
  readonly #o: TakerFillsOptions;
  readonly #perMarket: number;
  readonly #total: number;

  constructor(opts: TakerFillsOptions) {
    this.#o = opts;
    this.#perMarket = opts.perMarket ?? FILLS_PER_MARKET_KEPT;
    this.#total = opts.total ?? FILLS_KEPT;
  }

  list(): readonly FillView[] {
    return this.#fills;
  }

  /** Another account was selected: its fills are not this one's. */
  clear(): void {
    this.#fills.length = 0;
    this.#supported = null;
  }

  /**
   * Fills of the same account kept from before (main's store or the exchange's list, after a restart):
   * those of orders not recorded here are added before the ones recorded since, within the bounds.
   * Keyed by the taker order id: all of an order's fills are recorded together. Returns how many were added.
   */
  restore(views: readonly FillView[]): number {
    const known = new Set(this.#fills.map((f) => f.orderId.toLowerCase()));
    const added = views.filter((v) => !known.has(v.orderId.toLowerCase()));
    if (added.length === 0) return 0;
    const recent = this.#fills.splice(0, this.#fills.length);
    this.#add([...added, ...recent]);
    return added.length;
  }

  /** Records (and returns) an order's fills: the exchange's records first, any unreported rest at the limit. */
  async record(account: Address | undefined, order: TakerOrder): Promise<FillView[]> {
    const at = Date.now();
    const records = (await this.#byOrder(account, order.assetId, order.epoch))?.get(order.orderId.toLowerCase()) ?? [];
    const views = fillViews(order, records, order.filled, at);
    this.#add(views);
    return views;
  }

  /** Replaces fills still shown at their limit with the exchange's records, where it now has them; true when any changed. */
  async settleLimitPriced(account: Address | undefined): Promise<boolean> {
    if (this.#supported === false) return false;
    const markets = new Map<string, { assetId: bigint; epoch: bigint }>();
    for (const f of this.#fills)
      if (f.priceIsLimit)
        markets.set(`${f.assetId}:${f.epoch}`, { assetId: BigInt(f.assetId), epoch: BigInt(f.epoch) });
    let changed = false;
    for (const m of markets.values()) {
      const byOrder = await this.#byOrder(account, m.assetId, m.epoch);
      if (!byOrder) return changed;
      const orders = new Set(
        this.#fills
          .filter((f) => f.priceIsLimit && f.assetId === m.assetId.toString() && f.epoch === m.epoch.toString())
          .map((f) => f.orderId.toLowerCase()),
      );
      for (const id of orders) {
        const records = byOrder.get(id) ?? [];
        const mine = this.#fills.filter((f) => f.orderId.toLowerCase() === id);
        const exact = mine.filter((f) => !f.priceIsLimit).reduce((sum, f) => sum + BigInt(f.size), 0n);
        if (records.reduce((sum, r) => sum + r.size, 0n) <= exact) continue;
        const first = mine[0]!;
        const filled = mine.reduce((sum, f) => sum + BigInt(f.size), 0n);
        const limit = BigInt(mine.find((f) => f.priceIsLimit)!.price);
        const views = fillViews(
          { ...m, orderId: first.orderId as Hex, side: first.side, limit },
          records,
          filled,
          first.at,
        );
        const kept = this.#fills.filter((f) => f.orderId.toLowerCase() !== id);
        this.#fills.splice(0, this.#fills.length, ...kept, ...views);
        changed = true;
      }
    }
    return changed;
  }

  #add(views: readonly FillView[]): void {
    for (const v of views) {
      this.#fills.push(v);
      // The oldest fill of the same market goes once the market holds more than it may.
      const same = this.#fills.filter((f) => f.assetId === v.assetId && f.epoch === v.epoch);
      if (same.length > this.#perMarket) this.#fills.splice(this.#fills.indexOf(same[0]!), 1);
      // And the oldest of all once every market together holds more than a session keeps.
      if (this.#fills.length > this.#total) this.#fills.shift();
    }
  }

  /** The account's taker fills in one market by own order id (oldest first); null when not available. */
  async #byOrder(
    account: Address | undefined,
    assetId: bigint,
    epoch: bigint,
  ): Promise<Map<string, OwnFillRecord[]> | null> {
    if (!account || this.#supported === false) return null;
    let records: OwnFillRecord[] | null;
    try {
      records = await this.#o.reader.getFills(account, { assetId, epoch, limit: 1000 });
    } catch (error) {
      this.#o.logger.debug('session.fills_unreadable', {
        code: error instanceof ExchangeError ? error.code : 'UNKNOWN',
      });
      return null;
    }
    this.#supported = records !== null;
    if (records === null) return null;
    const byOrder = new Map<string, OwnFillRecord[]>();
    for (const r of [...records].reverse()) {
      if (r.liquidity !== 'taker') continue;
      const key = r.orderId.toLowerCase();
      byOrder.set(key, [...(byOrder.get(key) ?? []), r]);
    }
    return byOrder;
  }
}

/** Exchange records first (oldest first), then any unreported remainder at the limit, flagged. */
function fillViews(
  order: Omit<TakerOrder, 'filled'>,
  records: OwnFillRecord[],
  filled: bigint,
  at: number,
): FillView[] {
  const base = {
    assetId: order.assetId.toString(),
    epoch: order.epoch.toString(),
    orderId: order.orderId,
    side: order.side,
    liquidity: 'taker' as const,
    at,
  };
  const views: FillView[] = records.map((r) => ({ ...base, price: r.price.toString(), size: r.size.toString() }));
  const reported = records.reduce((sum, r) => sum + r.size, 0n);
  if (reported < filled)
    views.push({ ...base, price: order.limit.toString(), size: (filled - reported).toString(), priceIsLimit: true });
  return views;
}
