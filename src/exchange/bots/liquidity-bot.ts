/**
 * Runs one bot account over several markets on a jittered timer, and steps a market at once when
 * the venue's feeds say it may need new quotes (venue.watch). A failed step is logged as one line
 * and the loop goes on: a bot never takes the devnet down with it.
 */
import { MarketMaker, type BotFair, type MarketMakerConfig } from './market-maker';
import { jitter, seededRandom } from '../prng';
import type { BotVenue } from './venue';

export interface LiquidityBotOptions {
  name: string;
  venue: BotVenue;
  assetIds: bigint[];
  config: MarketMakerConfig;
  /** A market's own volatility for N(d2) (its oracle's), when it has one; else `config.sigma`. */
  sigmaOf?: (assetId: bigint) => number | undefined;
  seed: number;
  /** Mean ms between steps; each wait is jittered ±30 %. */
  stepMs: number;
  log: (line: string) => void;
  now?: () => number;
}

export interface LiquidityBot {
  readonly name: string;
  readonly address: string;
  /** Completed steps across all markets (progress for tests and the status line). */
  readonly steps: number;
  /** The fair value the bot last priced a market at (undefined before its first priced step). */
  lastFair(assetId: bigint): BotFair | undefined;
  /** Cancels the bot's quotes and closes its connections. */
  stop(): Promise<void>;
}

export function startLiquidityBot(opts: LiquidityBotOptions): LiquidityBot {
  const random = seededRandom(opts.seed);
  const log = (line: string): void => opts.log(`[bot ${opts.name}] ${line}`);
  const makers = opts.assetIds.map(
    (assetId) =>
      new MarketMaker({
        venue: opts.venue,
        assetId,
        config: { ...opts.config, sigma: opts.sigmaOf?.(assetId) ?? opts.config.sigma },
        random,
        now: opts.now ?? Date.now,
        log,
      }),
  );
  let steps = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One step at a time per bot: timer passes and feed wake-ups queue on the same chain.
  let running: Promise<void> = Promise.resolve();
  // Repeated identical errors are logged once until something changes, so a down service does not flood the log.
  let lastError = '';

  async function stepOne(maker: MarketMaker, take: boolean): Promise<void> {
    if (stopped) return;
    try {
      await maker.step({ take });
      steps += 1;
      lastError = '';
    } catch (err) {
      const line = `step failed: ${describe(err)}`;
      if (line !== lastError) log(line);
      lastError = line;
    }
  }

  async function runOnce(): Promise<void> {
    for (const maker of makers) await stepOne(maker, true);
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = running.then(runOnce).finally(schedule);
      },
      jitter(random, opts.stepMs, opts.stepMs * 0.3),
    );
  }
  running = runOnce().finally(schedule);

  // Feed-driven re-quoting: an oracle tick or an own fill steps that market at once (no taking:
  // the take rate stays per timer step). A wake-up already queued absorbs the next ones.
  const queued = new Set<MarketMaker>();
  const unwatch = makers.map((maker, i) =>
    opts.venue.watch?.(opts.assetIds[i]!, () => {
      if (stopped || queued.has(maker)) return;
      queued.add(maker);
      running = running.then(() => {
        queued.delete(maker);
        return stepOne(maker, false);
      });
    }),
  );

  return {
    name: opts.name,
    address: opts.venue.address,
    get steps() {
      return steps;
    },
    lastFair(assetId) {
      return makers[opts.assetIds.indexOf(assetId)]?.lastFair;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      for (const u of unwatch) u?.();
      await running;
      for (const maker of makers) {
        try {
          await maker.withdrawQuotes();
        } catch (err) {
          log(`cancel on stop failed: ${describe(err)}`);
        }
      }
      await opts.venue.close();
    },
  };
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${err.message.split('\n')[0] ?? ''}`;
  }
  return String(err);
}
