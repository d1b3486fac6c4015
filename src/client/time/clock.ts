// Estimate of the exchange's clock. Each answered request bounds the offset (server − local):
// a `ts` (ms) or Date header (1 s resolution) seen between sending and receiving. Bounds from recent
// samples are intersected; if they stop overlapping (the local clock jumped) the estimate restarts.
import type { ResponseTiming } from '../http/http';

interface Bounds {
  lo: number;
  hi: number;
}

/** Milliseconds below this are taken to be seconds (a ts field in seconds). */
const MS_THRESHOLD = 1e11;

export class ExchangeClock {
  #bounds: Bounds | null = null;
  /** Once a body `ts` was seen, Date headers are ignored: a server may stamp them from another clock. */
  #sawTs = false;
  readonly #local: () => number;
  samples = 0;

  constructor(local: () => number = Date.now) {
    this.#local = local;
  }

  /** Best estimate of server − local, in ms (0 before any sample). */
  get offsetMs(): number {
    return this.#bounds === null ? 0 : Math.round((this.#bounds.lo + this.#bounds.hi) / 2);
  }

  /** Half-width of the uncertainty, in ms (Infinity before any sample). */
  get uncertaintyMs(): number {
    return this.#bounds === null ? Infinity : (this.#bounds.hi - this.#bounds.lo) / 2;
  }

  /** Exchange time now, in ms. Use for approval nonces (docs/protocol/agents.md#the-approval-nonce). */
  now = (): number => this.#local() + this.offsetMs;

  /** Feed one server timestamp observed by a request sent at `sentAt` and answered at `receivedAt`. */
  observe(serverMs: number, sentAt: number, receivedAt: number, resolutionMs = 0): void {
    if (!Number.isFinite(serverMs) || receivedAt < sentAt) return;
    const b = { lo: serverMs - receivedAt, hi: serverMs + resolutionMs - sentAt };
    this.samples++;
    if (this.#bounds === null) {
      this.#bounds = b;
      return;
    }
    const lo = Math.max(this.#bounds.lo, b.lo);
    const hi = Math.min(this.#bounds.hi, b.hi);
    this.#bounds = lo <= hi ? { lo, hi } : b;
  }

  /** HttpCore `onResponse` hook: uses the body's `ts` when present, else the Date header. */
  readonly onResponse = (info: ResponseTiming): void => {
    const ts = typeof info.body === 'object' && info.body !== null ? (info.body as { ts?: unknown }).ts : undefined;
    const n = typeof ts === 'number' ? ts : typeof ts === 'string' && /^\d+$/.test(ts) ? Number(ts) : NaN;
    if (Number.isSafeInteger(n) && n > 0) {
      if (!this.#sawTs) this.#bounds = null;
      this.#sawTs = true;
      if (n >= MS_THRESHOLD) this.observe(n, info.sentAt, info.receivedAt);
      else this.observe(n * 1000, info.sentAt, info.receivedAt, 1000);
      return;
    }
    if (info.date !== undefined && !this.#sawTs) {
      const d = Date.parse(info.date);
      if (Number.isFinite(d)) this.observe(d, info.sentAt, info.receivedAt, 1000);
    }
  };
}
