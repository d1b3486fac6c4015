// One order book (asset, epoch) as per-side arrays indexed by price tick plus an order-id map, so an
// update is a map lookup and two array writes. Prices are on the 0.1¢ tick (1..999 ticks per side).
// Level sizes are exact integers held in doubles: exact while a level holds < 9 × 10^15 units
// (90,000 orders of the exchange's 10^11 maximum), far beyond any book. Signed values never pass here.
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from '../../shared/protocol';
import type { MarketUpdate } from '../feeds/market-feed';
import type { OrderBook } from '../http/schemas';

const TICKS = Number(MAX_PRICE / PRICE_TICK) + 1; // index 0 unused
const TICK = Number(PRICE_TICK);

interface RestingOrder {
  sell: boolean;
  tick: number;
  size: number;
}

export interface PriceLevel {
  price: bigint;
  size: bigint;
  orderCount: number;
}

export interface BookLevels {
  bids: PriceLevel[];
  asks: PriceLevel[];
}

function tickOf(price: bigint | number): number {
  const p = typeof price === 'bigint' ? price : BigInt(price);
  if (p < MIN_PRICE || p > MAX_PRICE || p % PRICE_TICK !== 0n) return -1;
  return Number(p / PRICE_TICK);
}

export class BookStore {
  readonly assetId: bigint;
  readonly epoch: bigint;
  /** seqId of the last applied update (or of the snapshot). */
  seqId = -1n;
  readonly #size = [new Float64Array(TICKS), new Float64Array(TICKS)]; // [bids, asks]
  readonly #count = [new Int32Array(TICKS), new Int32Array(TICKS)];
  readonly #orders = new Map<string, RestingOrder>();
  /** Resolved epochs have an empty book (the resolution event of docs/protocol/feeds.md#market-events). */
  resolved = false;

  constructor(assetId: bigint, epoch: bigint) {
    this.assetId = assetId;
    this.epoch = epoch;
  }

  get orderCount(): number {
    return this.#orders.size;
  }

  clear(): void {
    for (const a of this.#size) a.fill(0);
    for (const a of this.#count) a.fill(0);
    this.#orders.clear();
  }

  /** Add or replace a resting order. False when the price is off the tick grid. */
  addOrder(orderId: string, sell: boolean, price: bigint, size: bigint): boolean {
    const tick = tickOf(price);
    if (tick < 0 || size <= 0n) return false;
    const id = orderId.toLowerCase();
    const old = this.#orders.get(id);
    if (old) this.#remove(old);
    const o = { sell, tick, size: Number(size) };
    this.#orders.set(id, o);
    const s = sell ? 1 : 0;
    this.#size[s]![tick]! += o.size;
    this.#count[s]![tick]!++;
    return true;
  }

  /** Subtract a fill; the order leaves at 0. False when the order is unknown or overfilled. */
  fill(orderId: string, fill: bigint): boolean {
    const o = this.#orders.get(orderId.toLowerCase());
    const f = Number(fill);
    if (!o || f > o.size) return false;
    const s = o.sell ? 1 : 0;
    o.size -= f;
    this.#size[s]![o.tick]! -= f;
    if (o.size === 0) {
      this.#count[s]![o.tick]!--;
      this.#orders.delete(orderId.toLowerCase());
    }
    return true;
  }

  /** Remove an order. False when it is not in the book. */
  cancel(orderId: string): boolean {
    const id = orderId.toLowerCase();
    const o = this.#orders.get(id);
    if (!o) return false;
    this.#remove(o);
    this.#orders.delete(id);
    return true;
  }

  #remove(o: RestingOrder): void {
    const s = o.sell ? 1 : 0;
    this.#size[s]![o.tick]! -= o.size;
    this.#count[s]![o.tick]!--;
  }

  /**
   * Apply one feed update (its seqId is the caller's business). False when it does not fit the
   * book (unknown order, off-grid price): the caller must resync.
   */
  apply(u: MarketUpdate): boolean {
    switch (u.type) {
      case 'order':
        return this.addOrder(u.data.orderId, u.data.side, u.data.price, u.data.size);
      case 'trade':
        return this.fill(u.data.orderId, u.data.fill);
      case 'cancel':
        return this.cancel(u.data.cancelId);
      case 'resolution':
        this.clear();
        this.resolved = true;
        return true;
    }
  }

  /** Replace the contents with a REST snapshot. False when it lacks per-order detail or is off-grid. */
  load(snapshot: OrderBook): boolean {
    this.clear();
    this.seqId = snapshot.seqId;
    for (const [levels, sell] of [
      [snapshot.bids, false],
      [snapshot.asks, true],
    ] as const) {
      for (const level of levels) {
        if (level.orders === undefined) return false;
        for (const o of level.orders) if (!this.addOrder(o.id, sell, level.price, o.size)) return false;
      }
    }
    return true;
  }

  /** Aggregated levels, best first: bids descending, asks ascending. */
  levels(side: 'bids' | 'asks', depth = Infinity): PriceLevel[] {
    const s = side === 'asks' ? 1 : 0;
    const size = this.#size[s]!;
    const count = this.#count[s]!;
    const out: PriceLevel[] = [];
    const step = s === 1 ? 1 : -1;
    for (let t = s === 1 ? 1 : TICKS - 1; t >= 1 && t < TICKS && out.length < depth; t += step) {
      if (count[t]! > 0) out.push({ price: BigInt(t * TICK), size: BigInt(size[t]!), orderCount: count[t]! });
    }
    return out;
  }

  view(depth = Infinity): BookLevels {
    return { bids: this.levels('bids', depth), asks: this.levels('asks', depth) };
  }

  bestBid(): PriceLevel | undefined {
    return this.levels('bids', 1)[0];
  }

  bestAsk(): PriceLevel | undefined {
    return this.levels('asks', 1)[0];
  }

  /** Ids of the resting orders (lowercase). */
  orderIds(): IterableIterator<string> {
    return this.#orders.keys();
  }
}

/** The comparable L2 of a REST snapshot (price, size, orderCount per level). */
export function snapshotView(s: OrderBook): BookLevels {
  const conv = (l: OrderBook['bids'][number]): PriceLevel => ({
    price: l.price,
    size: l.size,
    orderCount: l.orderCount,
  });
  return { bids: s.bids.map(conv), asks: s.asks.map(conv) };
}

export function sameView(a: BookLevels, b: BookLevels): boolean {
  const eq = (x: PriceLevel[], y: PriceLevel[]) =>
    x.length === y.length &&
    x.every((l, i) => l.price === y[i]!.price && l.size === y[i]!.size && l.orderCount === y[i]!.orderCount);
  return eq(a.bids, b.bids) && eq(a.asks, b.asks);
}
