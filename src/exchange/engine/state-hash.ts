// Canonical serialisation and hash of the engine state, for replay determinism checks.
// Canonical = JSON with object keys sorted, every integer (number or bigint) as a decimal string, collections
// that have no inherent order sorted by key, and order queues kept in time priority.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { liveOrders } from './book';
import type { Book, EngineState, Level, Order } from './state';

type Canonical = string | boolean | null | Canonical[] | { [k: string]: Canonical };

function cmp(a: string | bigint, b: string | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON text with sorted keys; numbers and bigints become decimal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(toCanonical(value));
}

function toCanonical(v: unknown): Canonical {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`canonicalJson: ${v} is not a safe integer`);
    return String(v);
  }
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toCanonical);
  if (typeof v === 'object') {
    const out: { [k: string]: Canonical } = {};
    for (const k of Object.keys(v).sort()) out[k] = toCanonical((v as Record<string, unknown>)[k]);
    return out;
  }
  throw new Error(`canonicalJson: cannot serialise a ${typeof v}`);
}

function orderSnapshot(o: Order): unknown {
  return {
    id: o.id,
    account: o.pos.account.id,
    sell: o.sell,
    tick: o.tick,
    size: o.size,
    remaining: o.remaining,
    rp: o.rp,
    rm: o.rm,
    tif: o.tif,
    time: o.time,
    seq: o.seq,
    signer: o.signer,
    signatureType: o.signatureType,
    nonce: o.nonce,
    approvalNonce: o.approvalNonce,
  };
}

function sideSnapshot(levels: Level[]): unknown[] {
  const out: unknown[] = [];
  for (let t = 1; t <= 999; t++) {
    const orders = liveOrders(levels[t] as Level);
    if (orders.length > 0) out.push({ tick: t, orders: orders.map(orderSnapshot) });
  }
  return out;
}

function bookSnapshot(b: Book): unknown {
  return {
    assetId: b.assetId,
    epoch: b.epoch,
    strike: b.strike,
    expiration: b.expiration,
    seq: b.seq,
    bestBid: b.bestBid,
    bestAsk: b.bestAsk,
    lastTick: b.lastTick,
    lastTime: b.lastTime,
    pool: b.pool,
    resolved: b.resolved,
    resolutionPrice: b.resolutionPrice,
    upWins: b.upWins,
    bids: sideSnapshot(b.bids),
    asks: sideSnapshot(b.asks),
    positions: [...b.positions.values()]
      .sort((x, y) => cmp(x.account.id, y.account.id))
      .map((p) => ({
        account: p.account.id,
        net: p.net,
        cost: p.cost,
        pnl: p.pnl,
        resLong: p.resLong,
        resShort: p.resShort,
        claimed: p.claimed,
        orders: [...p.orders].map((o) => o.id),
      })),
  };
}

/** A plain, canonical view of the whole state (also handy for diffing in tests). */
export function snapshotState(s: EngineState): unknown {
  const books: unknown[] = [];
  for (const assetId of [...s.books.keys()].sort(cmp)) {
    const epochs = s.books.get(assetId);
    if (epochs === undefined) continue;
    for (const epoch of [...epochs.keys()].sort(cmp)) books.push(bookSnapshot(epochs.get(epoch) as Book));
  }
  return {
    credited: s.credited,
    paidOut: s.paidOut,
    orderSeq: s.orderSeq,
    processed: [...s.processed, ...[...s.digestBooks].flatMap((b) => [...(b.digests ?? [])])].sort(cmp),
    creditIndices: [...s.creditIndices].sort(cmp),
    accounts: [...s.accounts.values()]
      .sort((x, y) => cmp(x.id, y.id))
      .map((a) => ({
        id: a.id,
        free: a.free,
        pending: a.pending,
        fills: a.fills.slice(-s.fillHistory).map((f) => ({
          time: f.time,
          orderId: f.orderId,
          assetId: f.book.assetId,
          epoch: f.book.epoch,
          sell: f.sell,
          tick: f.tick,
          size: f.size,
          maker: f.maker,
        })),
      })),
    books,
    // Withdrawals keep request order: that is the payout queue order.
    withdrawals: [...s.withdrawals.values()].map((w) => ({ ...w })),
  };
}

export function stateHash(s: EngineState): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(snapshotState(s)))));
}
