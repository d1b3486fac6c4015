/**
 * Price-ladder arithmetic: tick grouping, cumulative depth and the fixed window of rows.
 * Rows are keyed by price and only their numbers change between book updates, so the DOM
 * keeps its rows and the ladder stays still under the pointer.
 */
import type { BookLevel, BookView } from '../../shared/bridge';
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from '../../shared/protocol/constants';

export interface GroupedLevel {
  readonly size: bigint;
  readonly own: bigint;
}

export interface LadderRow {
  readonly price: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  /** Depth from the best price up to and including this row. */
  readonly cumBid: bigint;
  readonly cumAsk: bigint;
  readonly ownBid: bigint;
  readonly ownAsk: bigint;
  readonly isLast: boolean;
}

/**
 * Buckets levels into groups of `step` protocol units. Bids round down and asks round up, so a
 * grouped row never shows a better price than the book really offers.
 */
export function groupLevels(
  levels: readonly BookLevel[],
  step: bigint,
  side: 'bid' | 'ask',
): Map<bigint, GroupedLevel> {
  const grouped = new Map<bigint, GroupedLevel>();
  for (const level of levels) {
    const price = BigInt(level.price);
    const bucket = side === 'bid' ? (price / step) * step : ((price + step - 1n) / step) * step;
    const prior = grouped.get(bucket);
    grouped.set(bucket, {
      size: (prior?.size ?? 0n) + BigInt(level.size),
      own: (prior?.own ?? 0n) + BigInt(level.ownSize),
    });
  }
  return grouped;
}

/** Cumulative depth per price: bids summed from the highest price down, asks from the lowest up. */
export function cumulativeDepth(grouped: Map<bigint, GroupedLevel>, side: 'bid' | 'ask'): Map<bigint, bigint> {
  const prices = [...grouped.keys()].sort((a, b) => (a === b ? 0 : a < b === (side === 'ask') ? -1 : 1));
  const depth = new Map<bigint, bigint>();
  let running = 0n;
  for (const price of prices) {
    running += grouped.get(price)?.size ?? 0n;
    depth.set(price, running);
  }
  return depth;
}

export function snapToStep(price: bigint, step: bigint): bigint {
  const snapped = ((price + step / 2n) / step) * step;
  const low = ((MIN_PRICE + step - 1n) / step) * step;
  const high = (MAX_PRICE / step) * step;
  return snapped < low ? low : snapped > high ? high : snapped;
}

/** Where to centre the ladder: the mid of the best prices, else one side, else the last trade, else 50¢. */
export function ladderCentre(book: Pick<BookView, 'bids' | 'asks' | 'last'> | null, step: bigint): bigint {
  const bid = book?.bids[0]?.price;
  const ask = book?.asks[0]?.price;
  let mid = 500_000n;
  if (bid !== undefined && ask !== undefined) mid = (BigInt(bid) + BigInt(ask)) / 2n;
  else if (bid !== undefined) mid = BigInt(bid);
  else if (ask !== undefined) mid = BigInt(ask);
  else if (book?.last) mid = BigInt(book.last.price);
  return snapToStep(mid, step);
}

/** The fixed prices of the window, high to low: `count` rows centred on `centre`, inside 0.1–99.9¢. */
export function ladderPrices(centre: bigint, step: bigint, count: number): bigint[] {
  const low = ((MIN_PRICE + step - 1n) / step) * step;
  const high = (MAX_PRICE / step) * step;
  const half = BigInt(Math.floor(count / 2));
  let top = centre + half * step;
  if (top > high) top = high;
  let bottom = top - BigInt(count - 1) * step;
  if (bottom < low) {
    bottom = low;
    top = bottom + BigInt(count - 1) * step;
    if (top > high) top = high;
  }
  const prices: bigint[] = [];
  for (let p = top; p >= bottom; p -= step) prices.push(p);
  return prices;
}

/**
 * The rows for `prices` (high to low, as ladderPrices gives them). Depth at a row counts every
 * bid at or above its price and every ask at or below it, rows with no level of their own
 * included. One sweep per side: a book update costs O(levels + rows), run once per shown frame.
 */
export function ladderRows(
  book: Pick<BookView, 'bids' | 'asks' | 'last'> | null,
  prices: readonly bigint[],
  ticksPerRow: number,
): LadderRow[] {
  const step = BigInt(ticksPerRow) * PRICE_TICK;
  const bids = groupLevels(book?.bids ?? [], step, 'bid');
  const asks = groupLevels(book?.asks ?? [], step, 'ask');
  const lastBucket = book?.last ? snapToStep(BigInt(book.last.price), step) : null;
  const n = prices.length;
  const cumBid: bigint[] = new Array<bigint>(n).fill(0n);
  const cumAsk: bigint[] = new Array<bigint>(n).fill(0n);
  const bidPrices = [...bids.keys()].sort((a, b) => (a === b ? 0 : a > b ? -1 : 1));
  const askPrices = [...asks.keys()].sort((a, b) => (a === b ? 0 : a < b ? -1 : 1));
  let running = 0n;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const price = prices[i]!;
    while (k < bidPrices.length && bidPrices[k]! >= price) running += bids.get(bidPrices[k++]!)!.size;
    cumBid[i] = running;
  }
  running = 0n;
  k = 0;
  for (let i = n - 1; i >= 0; i--) {
    const price = prices[i]!;
    while (k < askPrices.length && askPrices[k]! <= price) running += asks.get(askPrices[k++]!)!.size;
    cumAsk[i] = running;
  }
  return prices.map((price, i) => {
    const bid = bids.get(price);
    const ask = asks.get(price);
    return {
      price,
      bid: bid?.size ?? 0n,
      ask: ask?.size ?? 0n,
      cumBid: cumBid[i]!,
      cumAsk: cumAsk[i]!,
      ownBid: bid?.own ?? 0n,
      ownAsk: ask?.own ?? 0n,
      isLast: lastBucket === price,
    };
  });
}

/**
 * `next` with every row that equals the one at the same price in `previous` replaced by that
 * earlier object, so the view updates only the rows whose numbers moved (keyed each blocks skip an
 * item that is the same object). Returns `previous` itself when nothing changed.
 */
export function reuseRows(next: readonly LadderRow[], previous: readonly LadderRow[]): LadderRow[] {
  let same = next.length === previous.length;
  const out = next.map((row, i) => {
    const old = previous[i];
    if (
      old !== undefined &&
      old.price === row.price &&
      old.bid === row.bid &&
      old.ask === row.ask &&
      old.cumBid === row.cumBid &&
      old.cumAsk === row.cumAsk &&
      old.ownBid === row.ownBid &&
      old.ownAsk === row.ownAsk &&
      old.isLast === row.isLast
    ) {
      return old;
    }
    same = false;
    return row;
  });
  return same ? (previous as LadderRow[]) : out;
}

/** Width of a depth bar in percent of the deepest visible cumulative size (integer maths). */
export function barPercent(size: bigint, max: bigint): number {
  return max === 0n ? 0 : Number((size * 100n) / max);
}

/**
 * The centre the ladder should show next. It never moves while the pointer is over it; otherwise
 * it follows the market only once the best prices leave the middle half of the window.
 */
export function nextCentre(
  current: bigint | null,
  target: bigint,
  step: bigint,
  rows: number,
  pointerInside: boolean,
): bigint | null {
  if (pointerInside) return current;
  if (current === null) return target;
  const quarter = BigInt(Math.floor(rows / 4)) * step;
  return target > current + quarter || target < current - quarter ? target : current;
}

/** The ladder's one keyboard stop: a row (by price) and a side. */
export interface LadderCursor {
  readonly price: bigint;
  readonly side: 'buy' | 'sell';
}

/** Rows a PageUp / PageDown press moves the cursor. */
export const LADDER_PAGE_ROWS = 10;

/**
 * Where the cursor rests: where it was if that price is still shown, else the best bid's row
 * (bid side) or the best ask's row (ask side), else the middle row. Null for an empty window.
 */
export function ladderCursor(
  cursor: LadderCursor | null,
  prices: readonly bigint[],
  best: { bid: bigint | null; ask: bigint | null } = { bid: null, ask: null },
): LadderCursor | null {
  if (prices.length === 0) return null;
  if (cursor && prices.includes(cursor.price)) return cursor;
  const side = cursor?.side ?? 'buy';
  const anchor = side === 'buy' ? best.bid : best.ask;
  if (anchor !== null && prices.includes(anchor)) return { price: anchor, side };
  return { price: prices[Math.floor(prices.length / 2)]!, side };
}

/**
 * The cursor after a navigation key, or null when the key is not one the ladder handles.
 * Up/Down move a row (prices are listed high to low, so Up is the higher price), Left/Right pick
 * the bid or ask side, PageUp/PageDown move ten rows, Home/End go to the first/last row. The
 * cursor stops at the edges: the window of prices itself never moves under the keyboard.
 */
export function moveLadderCursor(cursor: LadderCursor, prices: readonly bigint[], key: string): LadderCursor | null {
  const index = prices.indexOf(cursor.price);
  const at = (i: number): LadderCursor => ({
    price: prices[Math.max(0, Math.min(prices.length - 1, i))]!,
    side: cursor.side,
  });
  switch (key) {
    case 'ArrowUp':
      return at(index - 1);
    case 'ArrowDown':
      return at(index + 1);
    case 'PageUp':
      return at(index - LADDER_PAGE_ROWS);
    case 'PageDown':
      return at(index + LADDER_PAGE_ROWS);
    case 'Home':
      return at(0);
    case 'End':
      return at(prices.length - 1);
    case 'ArrowLeft':
      return { price: cursor.price, side: 'buy' };
    case 'ArrowRight':
      return { price: cursor.price, side: 'sell' };
    default:
      return null;
  }
}

/** The ladder's row groupings, in ticks (0.1¢) per row: 0.1¢, 0.5¢, 1¢, 2¢ and 5¢. */
export const LADDER_GROUPINGS: readonly number[] = [1, 5, 10, 20, 50];

/**
 * The grouping the ladder picks by itself (the person's own choice in its Group menu wins over it).
 * A fixed 0.1¢ shows only a few cents of rows, so a market quoted 4–11¢ wide showed no quotes at
 * all: the grouping follows the spread instead, the finest one whose rows from the best bid to the
 * best ask fill at most half the window. Half, because the ladder recentres only once the mid leaves
 * the middle half (nextCentre): until then the mid may drift a quarter of the window off centre, and
 * quotes within half of it stay on screen. It goes finer only when the quotes fit a third at the finer
 * grouping, so a spread moving about one threshold does not flip the rows back and forth. With a side
 * missing (no spread to read) it keeps `current`, 0.1¢ to start with.
 */
export function autoTicksPerRow(
  current: number | null,
  best: { bid: bigint | null; ask: bigint | null },
  rows: number,
): number {
  const { bid, ask } = best;
  if (bid === null || ask === null) return current ?? LADDER_GROUPINGS[0]!;
  // Rows the inside quotes take at `ticks` per row, both included (bids round down, asks up, as groupLevels does).
  const span = (ticks: number): number => {
    const step = BigInt(ticks) * PRICE_TICK;
    const bidRow = (bid / step) * step;
    const askRow = ((ask + step - 1n) / step) * step;
    return Number((askRow > bidRow ? askRow - bidRow : 0n) / step) + 1;
  };
  const finest = (share: number): number =>
    LADDER_GROUPINGS.find((ticks) => span(ticks) <= rows * share) ?? LADDER_GROUPINGS.at(-1)!;
  const coarser = finest(1 / 2);
  if (current === null || coarser > current) return coarser;
  const finer = finest(1 / 3);
  return finer < current ? finer : current;
}
