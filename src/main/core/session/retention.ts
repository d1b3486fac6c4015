/**
 * How much of the past a session keeps. A terminal stays open all day: every collection that grows
 * per order, per fill or per epoch is held to one of these counts, so main's memory stays flat
 * however long it trades; facts nobody shows any more also go after a grace, so a busy session holds
 * minutes of them rather than filling its counts.
 */

/** Epochs before the current one whose last trade, resolution and empty account entries are kept per asset. */
export const EPOCHS_KEPT = 10n;
/** Facts of orders we placed (size, time in force, who signed), newest first; open ones are dropped last. */
export const PLACED_ORDERS_KEPT = 500;
/** How long the facts of an order that is no longer open are kept after it was placed. */
export const CLOSED_ORDER_GRACE_MS = 120_000;
/** How often that grace is applied (a sweep walks every entry, so not on each order). */
export const SWEEP_EVERY_MS = 10_000;
/** Own fills kept per market (asset and epoch), newest; the fills view and the CSV export show these. */
export const FILLS_PER_MARKET_KEPT = 200;
/** Own taker fills kept in all markets together, newest. */
export const FILLS_KEPT = 1_000;
/** Maker fill arrival times, one per fill the account state keeps (its OWN_FILLS_KEPT). */
export const FILL_TIMES_KEPT = 1_000;
/** Claimable amounts by epoch from the last claims reads, newest. */
export const CLAIMABLE_KEPT = 256;

/** The oldest epoch of an asset still kept while `current` trades. */
export function oldestKept(current: bigint): bigint {
  return current > EPOCHS_KEPT ? current - EPOCHS_KEPT : 0n;
}

/** `asset:epoch` map keys whose epoch is older than `oldest` for this asset. */
export function forgetEpochsBefore<V>(map: Map<string, V>, assetId: bigint, oldest: bigint): void {
  const prefix = `${assetId}:`;
  for (const key of [...map.keys()]) {
    if (key.startsWith(prefix) && BigInt(key.slice(prefix.length)) < oldest) map.delete(key);
  }
}

/**
 * A map that holds at most `limit` entries. Beyond it, the oldest entry that `evictable` allows goes
 * first (insertion order), else the oldest of all: a bound that never bends.
 */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  constructor(
    readonly limit: number,
    private readonly evictable: (key: K, value: V) => boolean = () => true,
  ) {}

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size <= this.limit) return;
    for (const [k, v] of this.#map) {
      // The entry just set is never the one to go: it is the newest.
      if (k !== key && this.evictable(k, v)) {
        this.#map.delete(k);
        return;
      }
    }
    this.#map.delete(this.#map.keys().next().value as K);
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Removes every entry `drop` picks. */
  sweep(drop: (key: K, value: V) => boolean): void {
    for (const [k, v] of this.#map) if (drop(k, v)) this.#map.delete(k);
  }

  clear(): void {
    this.#map.clear();
  }
}
