// Price levels of one book: arrays indexed by tick, each a FIFO queue, with best bid/ask maintained.
import type { Book, Level, Order } from './state';

export const NO_BID = 0;
export const NO_ASK = 1000;
export const MAX_TICK = 999;

function newLevels(): Level[] {
  const levels: Level[] = new Array<Level>(1001);
  for (let i = 0; i <= 1000; i++) levels[i] = { q: [], head: 0, live: 0 };
  return levels;
}

export function newBook(assetId: bigint, epoch: bigint, strike: bigint, expiration: bigint): Book {
  return {
    assetId,
    epoch,
    assetIdStr: assetId.toString(),
    epochStr: epoch.toString(),
    strike,
    expiration,
    // Clamp so an absurd expiration cannot overflow the comparison with command times.
    expirationMs: expiration > 9_000_000_000_000n ? Number.MAX_SAFE_INTEGER : Number(expiration) * 1000,
    bids: newLevels(),
    asks: newLevels(),
    bestBid: NO_BID,
    bestAsk: NO_ASK,
    seq: 0,
    lastTick: 0,
    lastTime: 0,
    pool: 0,
    positions: new Map(),
    digests: null,
    resolved: false,
    resolutionPrice: 0n,
    upWins: false,
  };
}

/** The level an order rests in (levels are indexed by tick, so this never misses). */
export function levelOf(book: Book, o: Order): Level {
  return (o.sell ? book.asks : book.bids)[o.tick] as Level;
}

export function pushOrder(book: Book, o: Order): void {
  const level = levelOf(book, o);
  level.q.push(o);
  level.live++;
  if (o.sell) {
    if (o.tick < book.bestAsk) book.bestAsk = o.tick;
  } else if (o.tick > book.bestBid) book.bestBid = o.tick;
}

/** The first live order of a level, advancing past dead ones. */
export function frontOf(level: Level): Order | undefined {
  const q = level.q;
  while (level.head < q.length) {
    const o = q[level.head] as Order;
    if (o.live) return o;
    level.head++;
  }
  return undefined;
}

/** Marks an order dead and keeps its level and the best prices consistent. */
export function unlinkOrder(book: Book, o: Order): void {
  o.live = false;
  const level = levelOf(book, o);
  level.live--;
  if (level.live === 0) {
    level.q.length = 0;
    level.head = 0;
    if (o.sell) {
      if (o.tick === book.bestAsk) book.bestAsk = scanAsk(book, o.tick + 1);
    } else if (o.tick === book.bestBid) book.bestBid = scanBid(book, o.tick - 1);
  } else if (level.q.length - level.head > 2 * level.live + 32) {
    // Many cancels in the middle of a queue: drop the dead entries, keeping FIFO order.
    level.q = level.q.slice(level.head).filter((x) => x.live);
    level.head = 0;
  }
}

function scanAsk(book: Book, from: number): number {
  for (let t = from; t <= MAX_TICK; t++) if ((book.asks[t] as Level).live > 0) return t;
  return NO_ASK;
}

function scanBid(book: Book, from: number): number {
  for (let t = from; t >= 1; t--) if ((book.bids[t] as Level).live > 0) return t;
  return NO_BID;
}

/** Live orders of a level in time priority. */
export function liveOrders(level: Level): Order[] {
  const out: Order[] = [];
  for (let i = level.head; i < level.q.length; i++) {
    const o = level.q[i] as Order;
    if (o.live) out.push(o);
  }
  return out;
}

/**
 * Both sides of every resolved book: 1,001 empty levels shared by all of them, frozen so nothing can
 * rest there. A resolved epoch's book stays (positions, claims, reads), but its own 2 × 1,001 levels
 * (~180 KB) would otherwise be kept per epoch for good, and a 1-minute market opens 1,440 epochs a day.
 * Identical to what clearBook leaves, so reads and the state hash cannot tell the difference.
 */
const RESOLVED_SIDE: Level[] = Object.freeze(
  Array.from({ length: 1001 }, () => Object.freeze({ q: Object.freeze([]) as unknown as Order[], head: 0, live: 0 })),
) as Level[];

/** After clearBook at resolution: the book's sides become the shared empty ones (see RESOLVED_SIDE). */
export function retireSides(book: Book): void {
  book.bids = RESOLVED_SIDE;
  book.asks = RESOLVED_SIDE;
}

/** Empties both sides, returning every live order (bids then asks, in priority order). */
export function clearBook(book: Book): Order[] {
  const out: Order[] = [];
  for (let t = MAX_TICK; t >= 1; t--) for (const o of liveOrders(book.bids[t] as Level)) out.push(o);
  for (let t = 1; t <= MAX_TICK; t++) for (const o of liveOrders(book.asks[t] as Level)) out.push(o);
  for (let t = 0; t <= 1000; t++) {
    for (const l of [book.bids[t] as Level, book.asks[t] as Level]) {
      l.q = [];
      l.head = 0;
      l.live = 0;
    }
  }
  for (const o of out) o.live = false;
  book.bestBid = NO_BID;
  book.bestAsk = NO_ASK;
  return out;
}
