// Shared helpers of the exchange service's fuzz / crash / replay-chaos tests
// (src/exchange/service/{fuzz,crash,replay-chaos}.test.ts) and the feed-chaos tests: a seeded PRNG,
// the conservation check, a market-feed client with a message queue, the REST book → L2View
// conversion, and hand-driven timers for the feed heartbeat.
import WebSocket from 'ws';
import type { L2View, TotalsView } from '../../src/exchange/engine';
import type { Hex } from '../../src/shared/protocol';
import { seededRandom } from '../../src/exchange/prng';

/**
 * Timers that move only when the test says so (the feed client's `Timers`): `advance(ms)` runs
 * every timer due by then, in time order, including ones scheduled while advancing.
 */
export class ManualTimers {
  now = 0;
  #seq = 0;
  readonly #due = new Map<number, { at: number; fn: () => void }>();

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.#seq;
    this.#due.set(id, { at: this.now + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#due.delete(handle as number);
  };

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.#due)
        if (
          e[1].at <= end &&
          (next === undefined || e[1].at < next[1].at || (e[1].at === next[1].at && e[0] < next[0]))
        )
          next = e;
      if (next === undefined) break;
      this.#due.delete(next[0]);
      this.now = next[1].at;
      next[1].fn();
    }
    this.now = end;
  }

  get pending(): number {
    return this.#due.size;
  }
}

/** A seeded generator with the helpers the chaos tests need, over the devnet's shared PRNG. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/**
 * Money is neither created nor destroyed: what sits in accounts, orders, positions and the payout
 * queue is exactly what was credited minus what was paid out. Returns the violation or null.
 */
export function conservationViolation(t: TotalsView): string | null {
  const held = t.free + t.pending + t.positionCollateral + t.queuedWithdrawals;
  return held === t.credited - t.paidOut
    ? null
    : `free ${t.free} + pending ${t.pending} + collateral ${t.positionCollateral} + queued ${t.queuedWithdrawals} = ${held} ≠ credited ${t.credited} − paid ${t.paidOut}`;
}

type Body = Record<string, unknown>;

/** A feed socket with a queue: `next(pred)` resolves with the first queued or future match. */
export interface FeedClient {
  ws: WebSocket;
  queue: Body[];
  next(pred?: (m: Body) => boolean): Promise<Body>;
  send(m: unknown): void;
  close(): Promise<void>;
}

export async function connectFeed(url: string): Promise<FeedClient> {
  const ws = new WebSocket(url);
  const queue: Body[] = [];
  let wake: (() => void) | null = null;
  ws.on('message', (d: Buffer) => {
    queue.push(JSON.parse(d.toString()) as Body);
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    queue,
    async next(pred = () => true) {
      for (;;) {
        const i = queue.findIndex(pred);
        if (i >= 0) return queue.splice(i, 1)[0]!;
        if (ws.readyState !== WebSocket.OPEN) throw new Error('feed socket closed while waiting');
        await new Promise<void>((r) => {
          wake = r;
          ws.once('close', () => r());
        });
      }
    },
    send: (m) => ws.send(JSON.stringify(m)),
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) resolve();
        else {
          ws.once('close', () => resolve());
          ws.close();
        }
      }),
  };
}

/** GET /book/:assetId/:epoch body → the engine's L2View (for BookMirror). */
export function restBookToL2(body: Body): L2View {
  const levels = (ls: Body[]) =>
    ls.map((l) => ({
      price: BigInt(l['price'] as string),
      size: BigInt(l['size'] as string),
      orderCount: l['orderCount'] as number,
      orders: (l['orders'] as Body[]).map((o) => ({
        id: o['id'] as Hex,
        size: BigInt(o['size'] as string),
        price: BigInt(o['price'] as string),
        time: o['time'] as number,
        account: o['account'] as string,
      })),
    }));
  return {
    assetId: BigInt(body['assetId'] as string),
    epoch: BigInt(body['epoch'] as string),
    seqId: body['seqId'] as number,
    bids: levels(body['bids'] as Body[]),
    asks: levels(body['asks'] as Body[]),
  };
}
