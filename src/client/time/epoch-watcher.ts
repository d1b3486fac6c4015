// Follows the current epoch of tracked assets (docs/protocol/trading-client.md#epoch-roll-over-and-claims): GET /asset
// every second per asset, reports roll-overs, and lists past epochs with something to claim.
import type { Address } from '../../shared/protocol';
import { ExchangeError } from '../errors';
import { realTimers, type Timers } from '../actions/intents';
import type { ExchangeReader } from '../http/read-client';
import type { Asset } from '../http/schemas';

export interface EpochWatcherOptions {
  reader: Pick<ExchangeReader, 'getAsset' | 'getClaimable' | 'getPosition'>;
  pollMs?: number;
  timers?: Timers;
  onEpoch?(assetId: bigint, previous: bigint | undefined, current: bigint, asset: Asset): void;
  onError?(assetId: bigint, err: ExchangeError): void;
}

export interface EpochClaimable {
  assetId: bigint;
  epoch: bigint;
  claimable: bigint;
}

export class EpochWatcher {
  readonly #o: EpochWatcherOptions;
  readonly #timers: Timers;
  readonly #tracked = new Map<string, { asset: Asset | null; timer: unknown }>();

  constructor(opts: EpochWatcherOptions) {
    this.#o = opts;
    this.#timers = opts.timers ?? realTimers;
  }

  current(assetId: bigint): bigint | undefined {
    return this.#tracked.get(assetId.toString())?.asset?.epoch;
  }

  asset(assetId: bigint): Asset | null | undefined {
    return this.#tracked.get(assetId.toString())?.asset;
  }

  /** Start polling an asset; resolves after the first poll. */
  async track(assetId: bigint): Promise<void> {
    const k = assetId.toString();
    if (this.#tracked.has(k)) return;
    this.#tracked.set(k, { asset: null, timer: null });
    await this.poll(assetId);
  }

  untrack(assetId: bigint): void {
    const t = this.#tracked.get(assetId.toString());
    if (t) this.#timers.clearTimeout(t.timer);
    this.#tracked.delete(assetId.toString());
  }

  stop(): void {
    for (const k of [...this.#tracked.keys()]) this.untrack(BigInt(k));
  }

  /** One poll now (also what the timer runs). */
  async poll(assetId: bigint): Promise<void> {
    const k = assetId.toString();
    const entry = this.#tracked.get(k);
    if (!entry) return;
    this.#timers.clearTimeout(entry.timer);
    try {
      const asset = await this.#o.reader.getAsset(assetId);
      if (this.#tracked.get(k) !== entry) return;
      const prev = entry.asset?.epoch;
      entry.asset = asset;
      if (prev !== asset.epoch) this.#o.onEpoch?.(assetId, prev, asset.epoch, asset);
    } catch (e) {
      if (e instanceof ExchangeError) this.#o.onError?.(assetId, e);
    }
    if (this.#tracked.get(k) === entry)
      entry.timer = this.#timers.setTimeout(() => void this.poll(assetId), this.#o.pollMs ?? 1_000);
  }

  /**
   * Past epochs (newest first, at most `lookback`) where `account` has something to claim, from
   * GET /claim. Epochs that are not resolved or have nothing are skipped.
   */
  async claimable(assetId: bigint, account: Address, lookback = 10): Promise<EpochClaimable[]> {
    const cur = this.current(assetId) ?? (await this.#o.reader.getAsset(assetId)).epoch;
    const out: EpochClaimable[] = [];
    for (let e = cur - 1n; e >= 0n && cur - e <= BigInt(lookback); e--) {
      try {
        const c = await this.#o.reader.getClaimable(assetId, e, account);
        if (c.claimable > 0n) out.push({ assetId, epoch: e, claimable: c.claimable });
      } catch (err) {
        if (!(err instanceof ExchangeError)) throw err;
      }
    }
    return out;
  }
}
