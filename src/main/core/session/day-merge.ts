/**
 * How the day's records (day-records.ts) and what the exchange reports are put together after a
 * restart: a position as kept and as the exchange gives it, a maker fill as the window shows it, and
 * the fills of the exchange's own-fill list (`GET /fills/:account`, where served) that the kept ones
 * lack. No fill twice: a taker order's fills are recorded together, so they are keyed by its id; a
 * maker order's fills come one by one from the feed (keyed by order id and sequence id), and the
 * exchange's list has no sequence id, so of a maker order only the fills beyond the count held are
 * taken from it (the newest: those made while the app was closed).
 */
import type { FillView } from '../../../shared/bridge';
import type { Address } from '../../../shared/protocol';
import type { ExchangePosition, OwnFill, OwnFillRecord } from '../../../client';
import type { DayPosition } from './day-records';

/** An own maker fill from the feed, as the window shows it (arrived at `at`). */
export function makerFillView(fill: OwnFill, at: number): FillView {
  return {
    assetId: fill.assetId.toString(),
    epoch: fill.epoch.toString(),
    orderId: fill.orderId,
    side: fill.side ? 'sell' : 'buy',
    price: fill.fillPrice.toString(),
    size: fill.fill.toString(),
    liquidity: 'maker',
    at,
  };
}

export function dayPositionOf(p: ExchangePosition): DayPosition {
  return {
    assetId: p.assetId.toString(),
    epoch: p.epoch.toString(),
    size: p.size.toString(),
    inventory: p.inventory.toString(),
    margin: p.margin.toString(),
    realisedPnl: p.realisedPnl.toString(),
  };
}

/** A kept position as the account state holds one (`ts` 0: not a read). */
export function positionOfDay(account: Address, p: DayPosition): ExchangePosition {
  return {
    account,
    assetId: BigInt(p.assetId),
    epoch: BigInt(p.epoch),
    ts: 0,
    size: BigInt(p.size),
    inventory: BigInt(p.inventory),
    margin: BigInt(p.margin),
    realisedPnl: BigInt(p.realisedPnl),
  };
}

/** Whether a position shows anything (the view leaves out one that does not). */
export function showsSomething(p: ExchangePosition | null | undefined): p is ExchangePosition {
  return !!p && (p.inventory !== 0n || p.margin !== 0n || p.realisedPnl !== 0n);
}

/**
 * The fills of the exchange's list (newest first, as served) made since `from` that `held` lacks,
 * oldest first, each at the exchange's time.
 */
export function missingFills(
  records: readonly OwnFillRecord[],
  held: readonly Pick<FillView, 'orderId' | 'liquidity'>[],
  from: number,
): { maker: FillView[]; taker: FillView[] } {
  const takers = new Set<string>();
  const makers = new Map<string, number>();
  for (const f of held) {
    const id = f.orderId.toLowerCase();
    if (f.liquidity === 'taker') takers.add(id);
    else makers.set(id, (makers.get(id) ?? 0) + 1);
  }
  const byOrder = new Map<string, OwnFillRecord[]>();
  for (const r of [...records].reverse()) {
    if (r.ts < from) continue;
    const k = `${r.liquidity}:${r.orderId.toLowerCase()}`;
    byOrder.set(k, [...(byOrder.get(k) ?? []), r]);
  }
  const maker: FillView[] = [];
  const taker: FillView[] = [];
  for (const list of byOrder.values()) {
    const first = list[0]!;
    const id = first.orderId.toLowerCase();
    if (first.liquidity === 'taker') {
      if (!takers.has(id)) taker.push(...list.map(viewOf));
    } else {
      const more = list.length - (makers.get(id) ?? 0);
      if (more > 0) maker.push(...list.slice(-more).map(viewOf));
    }
  }
  const byTime = (a: FillView, b: FillView): number => a.at - b.at;
  return { maker: maker.sort(byTime), taker: taker.sort(byTime) };
}

/** How much of each own order (lowercase id) the exchange's list says filled, maker and taker. */
export function filledByOrder(records: readonly OwnFillRecord[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const r of records) {
    const id = r.orderId.toLowerCase();
    out.set(id, (out.get(id) ?? 0n) + r.size);
  }
  return out;
}

function viewOf(r: OwnFillRecord): FillView {
  return {
    assetId: r.assetId.toString(),
    epoch: r.epoch.toString(),
    orderId: r.orderId,
    side: r.side ? 'sell' : 'buy',
    price: r.price.toString(),
    size: r.size.toString(),
    liquidity: r.liquidity,
    at: r.ts,
  };
}
