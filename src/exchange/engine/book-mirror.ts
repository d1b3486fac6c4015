// A client-side book rebuilt from an L2 snapshot plus market events (docs/protocol/feeds.md#sequencing-and-resync),
// exactly as a feed consumer would. Tests use it to prove that snapshot + later events = the next snapshot.
import type { L2View, MarketEvent } from './types';

interface MirrorOrder {
  sell: boolean;
  price: bigint;
  size: bigint;
  /** Arrival in the mirror; snapshot orders keep their book order. */
  n: number;
}

export interface ComparableBook {
  seqId: number;
  bids: { price: bigint; orders: { id: string; size: bigint }[] }[];
  asks: { price: bigint; orders: { id: string; size: bigint }[] }[];
}

export class BookMirror {
  seqId: number;
  private readonly orders = new Map<string, MirrorOrder>();
  private n = 0;

  constructor(snapshot: L2View) {
    this.seqId = snapshot.seqId;
    for (const [levels, sell] of [
      [snapshot.bids, false],
      [snapshot.asks, true],
    ] as const) {
      for (const l of levels)
        for (const o of l.orders) this.orders.set(o.id, { sell, price: l.price, size: o.size, n: this.n++ });
    }
  }

  /** Applies one event; throws on a seqId gap or an event that does not fit the book. */
  apply(e: MarketEvent): void {
    if (e.seqId !== this.seqId + 1) throw new Error(`seqId gap: have ${this.seqId}, got ${e.seqId}`);
    this.seqId = e.seqId;
    switch (e.type) {
      case 'order':
        this.orders.set(e.data.orderId, {
          sell: e.data.side === 'sell',
          price: BigInt(e.data.price),
          size: BigInt(e.data.size),
          n: this.n++,
        });
        return;
      case 'trade': {
        const o = this.orders.get(e.data.orderId);
        if (o === undefined) throw new Error(`trade on unknown order ${e.data.orderId}`);
        o.size -= BigInt(e.data.fill);
        if (o.size < 0n || o.size !== BigInt(e.data.size)) throw new Error(`trade size mismatch on ${e.data.orderId}`);
        if (o.size === 0n) this.orders.delete(e.data.orderId);
        return;
      }
      case 'cancel':
        if (!this.orders.delete(e.data.cancelId)) throw new Error(`cancel of unknown order ${e.data.cancelId}`);
        return;
      case 'resolution':
        this.orders.clear();
        return;
    }
  }

  comparable(): ComparableBook {
    return toComparable(
      this.seqId,
      [...this.orders.entries()].sort((a, b) => a[1].n - b[1].n),
    );
  }
}

function toComparable(seqId: number, entries: [string, MirrorOrder][]): ComparableBook {
  const side = (sell: boolean) => {
    const byPrice = new Map<bigint, { id: string; size: bigint }[]>();
    for (const [id, o] of entries) {
      if (o.sell !== sell) continue;
      const l = byPrice.get(o.price) ?? [];
      l.push({ id, size: o.size });
      byPrice.set(o.price, l);
    }
    return [...byPrice.entries()]
      .sort((a, b) => (sell ? Number(a[0] - b[0]) : Number(b[0] - a[0])))
      .map(([price, orders]) => ({ price, orders }));
  };
  return { seqId, bids: side(false), asks: side(true) };
}

/** The same shape from an engine snapshot (take it with enough depth to hold the whole book). */
export function comparableSnapshot(l2: L2View): ComparableBook {
  const side = (levels: L2View['bids']) =>
    levels.map((l) => ({ price: l.price, orders: l.orders.map((o) => ({ id: o.id, size: o.size })) }));
  return { seqId: l2.seqId, bids: side(l2.bids), asks: side(l2.asks) };
}
