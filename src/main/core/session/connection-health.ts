/**
 * The health of the connection to one deployment, as the status bar shows it: the HTTP API, the
 * market and oracle sockets and the chain node, probed on a timer and re-read from the sockets
 * every second. Also says why the exchange cannot be reached, so a call never waits on a dead one.
 */
import { JsonRpcProvider } from 'ethers';
import type { FeedHealth } from '../../../shared/bridge';
import {
  ExchangeError,
  rpcConnection,
  type ExchangeClock,
  type ExchangeReader,
  type MarketFeed,
  type OracleFeed,
} from '../../../client';
import type { Deployment } from '../../settings';
import { BridgeFailure } from '../bridge-runtime';
import { FeedHealthTracker, socketHealth } from './feed-health';

export const ORACLE_STALE_MS = 30_000;
const MARKET_STALE_MS = 45_000;

export interface ConnectionHealthOptions {
  deployment: Deployment;
  reader: Pick<ExchangeReader, 'getHealth'>;
  clock: Pick<ExchangeClock, 'samples' | 'offsetMs' | 'uncertaintyMs'>;
  marketFeed: MarketFeed;
  oracleFeed: OracleFeed;
  /** Resyncs of the streamed books, counted with the market feed's. */
  bookResyncs(): number;
  notify(level: 'error', message: string): void;
  /** Feed health or the connect state changed: the host re-sends `connection`. */
  onChange(): void;
}

export class ConnectionHealth {
  readonly #o: ConnectionHealthOptions;
  readonly #http = new FeedHealthTracker('http');
  readonly #market = new FeedHealthTracker('market');
  readonly #oracle = new FeedHealthTracker('oracle');
  readonly #chain = new FeedHealthTracker('chain');
  #oracleLastAt: number | null = null;
  #healthJson = '';
  #provider: JsonRpcProvider | null = null;
  /** Why the last attempt to reach the exchange failed; null once it answered. */
  #connectFailure: string | null = null;
  /** Callers waiting in whenConnected(): told at once when an attempt fails, so none waits on a dead exchange. */
  readonly #attemptFailed = new Set<(reason: string) => void>();

  constructor(opts: ConnectionHealthOptions) {
    this.#o = opts;
  }

  /** The chain node, one connection shared by the probe and the wallet balance read. */
  rpc(): JsonRpcProvider {
    return (this.#provider ??= new JsonRpcProvider(rpcConnection(this.#o.deployment.rpcUrl), undefined, {
      staticNetwork: true,
      batchMaxCount: 1,
    }));
  }

  /** Resolves with `ready`; while the exchange cannot be reached, rejects with the reason instead of waiting for the retries. */
  whenConnected(ready: Promise<void>): Promise<void> {
    if (this.#connectFailure !== null) return Promise.reject(unreachable(this.#o.deployment, this.#connectFailure));
    return new Promise((resolve, reject) => {
      const fail = (reason: string): void => reject(unreachable(this.#o.deployment, reason));
      this.#attemptFailed.add(fail);
      ready.then(resolve, reject).finally(() => this.#attemptFailed.delete(fail));
    });
  }

  /** An attempt to read the deployment's facts failed. */
  connectFailed(error: unknown): void {
    const reason =
      error instanceof ExchangeError
        ? error.sentence
        : error instanceof BridgeFailure
          ? error.message
          : 'the exchange did not answer';
    this.#http.fail('down', reason);
    this.#connectFailure = reason;
    for (const tell of [...this.#attemptFailed]) tell(reason);
    this.#o.onChange();
  }

  /** The exchange answered the connect, `startedAt` the time the attempt began. */
  connected(startedAt: number): void {
    this.#connectFailure = null;
    this.#http.ok(Date.now() - startedAt, Date.now());
  }

  /** How far the exchange's clock is from ours (ms), null before the first sample. */
  clockOffsetMs(): number | null {
    return this.#o.clock.samples > 0 ? this.#o.clock.offsetMs : null;
  }

  /** Half-width of the offset's uncertainty (ms), null before the first sample. */
  clockUncertaintyMs(): number | null {
    const u = this.#o.clock.uncertaintyMs;
    return this.#o.clock.samples > 0 && Number.isFinite(u) ? Math.round(u) : null;
  }

  oracleSeen(at: number): void {
    this.#oracleLastAt = at;
  }

  marketResynced(): void {
    this.#market.resyncs++;
  }

  oracleStale(): void {
    this.#oracle.resyncs++;
  }

  async probe(): Promise<void> {
    const started = Date.now();
    try {
      await this.#o.reader.getHealth({ timeoutMs: 5_000 });
      this.#http.ok(Date.now() - started, Date.now());
    } catch (error) {
      const wasLive = this.#http.state === 'live';
      this.#http.fail('down', error instanceof ExchangeError ? error.sentence : 'the exchange did not answer');
      if (wasLive) this.#o.notify('error', `Lost the connection to ${this.#o.deployment.name}.`);
    }
    await this.#probeChain();
    this.emitIfChanged();
  }

  async #probeChain(): Promise<void> {
    // Practice has no chain: play money lives on the practice exchange alone, so there is no node to probe.
    if (this.#o.deployment.builtIn === 'practice') return;
    const started = Date.now();
    const configured = this.#o.deployment.chainId;
    try {
      const chainId = BigInt((await this.rpc().send('eth_chainId', [])) as string);
      if (chainId.toString() !== configured)
        this.#chain.fail('down', `the node serves chain ${chainId}, not ${configured}`);
      else this.#chain.ok(Date.now() - started, Date.now());
    } catch {
      this.#chain.fail('down', 'the chain node did not answer');
    }
  }

  feedHealth(): FeedHealth[] {
    const now = Date.now();
    const market = this.#market;
    socketHealth(market, this.#o.marketFeed.socket, this.#o.marketFeed.lastActivityAt || null, now, MARKET_STALE_MS);
    socketHealth(this.#oracle, this.#o.oracleFeed.socket, this.#oracleLastAt, now, ORACLE_STALE_MS);
    const feeds = [
      this.#http.view(),
      { ...market.view(), resyncs: market.resyncs + this.#o.bookResyncs() },
      this.#oracle.view(),
    ];
    return this.#o.deployment.builtIn === 'practice' ? feeds : [...feeds, this.#chain.view()];
  }

  emitIfChanged(): void {
    // The clock's offset rides along: every countdown in the window reads it, so a better estimate
    // (or a jump of the local clock) is pushed within a second, not only when a feed changes state.
    const clock = [this.clockOffsetMs(), this.clockUncertaintyMs()].map((ms) =>
      ms === null ? null : Math.round(ms / 10),
    );
    // Each feed's last message to the second: the status bar shows its age, which must not read
    // "60s" on a feed that spoke a moment ago (at most one push a second, from this timer).
    const json = JSON.stringify([
      clock,
      this.feedHealth().map((f) => [
        f.feed,
        f.state,
        f.reason,
        f.resyncs,
        f.lastMessageAt === null ? null : Math.floor(f.lastMessageAt / 1000),
      ]),
    ]);
    if (json === this.#healthJson) return;
    this.#healthJson = json;
    this.#o.onChange();
  }

  close(): void {
    this.#provider?.destroy();
  }
}

function unreachable(deployment: Deployment, reason: string): BridgeFailure {
  const because = reason.replace(/[.\s]+$/, '');
  return new BridgeFailure(
    'connection.unreachable',
    `Not connected to ${deployment.name}: ${because}. The app keeps trying; nothing was signed or sent.`,
  );
}
