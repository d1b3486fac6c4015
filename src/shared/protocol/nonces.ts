// Nonces (docs/protocol/units.md#nonces): (timestampMs << 16) | counter, strictly increasing within one allocator.
import { validationError } from './errors';

const COUNTER_MAX = 0xffff;
const MAX_TS_MS = 2 ** 48 - 1;

export function makeNonce(timestampMs: bigint, counter: bigint): bigint {
  if (timestampMs < 0n || timestampMs > BigInt(MAX_TS_MS)) {
    throw validationError('integer_out_of_range', '$.timestampMs', 'A nonce timestamp must fit in 48 bits.');
  }
  if (counter < 0n || counter > BigInt(COUNTER_MAX)) {
    throw validationError('integer_out_of_range', '$.counter', 'A nonce counter must be between 0 and 65535.');
  }
  return (timestampMs << 16n) | counter;
}

export function nonceTimestampMs(nonce: bigint): bigint {
  return nonce >> 16n;
}

export function nonceCounter(nonce: bigint): bigint {
  return nonce & 0xffffn;
}

/**
 * The reference client's allocator. The clock (ms since epoch) is injectable for tests; a clock
 * that goes backwards keeps the last logical timestamp and bumps the counter instead.
 */
export class NonceManager {
  #lastMs: number;
  #counter = 0;
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
    // "Now" at construction: the first nonce in this same millisecond has counter 1.
    this.#lastMs = this.#now();
  }

  #now(): number {
    const t = Math.floor(this.#clock());
    if (!Number.isFinite(t) || t < 0 || t > MAX_TS_MS) {
      throw validationError(
        'integer_out_of_range',
        '$.clock',
        'The clock must return milliseconds between 0 and 2^48 - 1.',
      );
    }
    return t;
  }

  next(): bigint {
    const now = this.#now();
    if (now > this.#lastMs) {
      this.#lastMs = now;
      this.#counter = 0;
    } else if (this.#counter < COUNTER_MAX) {
      this.#counter++;
    } else {
      if (this.#lastMs >= MAX_TS_MS) {
        throw validationError('integer_out_of_range', '$.nonce', 'The nonce space is exhausted.');
      }
      this.#lastMs++;
      this.#counter = 0;
    }
    return (BigInt(this.#lastMs) << 16n) | BigInt(this.#counter);
  }
}
