/**
 * Runs the practice exchange's worker (src/practice, built to out/main/practice-worker.js) for main:
 * starts it through an injected spawner (index.ts passes worker_threads; tests pass a double), parses
 * every message it sends with the shared schemas (a worker is code main runs, but its messages are
 * still data from outside main's own objects), holds its facts to practice's constants and to this
 * computer, and says where it stands. It never runs the exchange on main's event loop.
 */
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_VERIFYING_CONTRACT,
  practiceEventSchema,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStart,
} from '../../../shared/practice';
import type { PracticeState } from '../../../shared/bridge';
import type { Logger } from '../../log';
import { BridgeFailure } from '../bridge-runtime';

/** What main needs of a worker: node's Worker has all of it. */
export interface PracticeWorkerPort {
  postMessage(value: PracticeRequest): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

export type PracticeSpawner = (start: PracticeStart) => PracticeWorkerPort;

/** Where the practice exchange answers, once it does. */
export interface PracticeEndpoints {
  readonly httpUrl: string;
  readonly marketWsUrl: string;
  readonly oracleWsUrl: string;
  /** The markets as the worker named them (it built the catalog), in its order. */
  readonly markets: readonly { readonly assetId: bigint; readonly symbol: string }[];
  readonly startupMs: number;
}

export interface PracticeHostStatus {
  readonly state: PracticeState;
  readonly stage: string | null;
  readonly startupMs: number | null;
  readonly problem: string | null;
  readonly endpoints: PracticeEndpoints | null;
}

export interface PracticeHostOptions {
  readonly spawn: PracticeSpawner;
  /** The journal's folder, in the app's data folder (userData/practice). */
  readonly dataDir: string;
  readonly logger: Logger;
  /** How long a start may take before main gives up on it, ms (default 30 s). */
  readonly startTimeoutMs?: number;
  /** How long a request (credit, stop) may wait for its reply, ms (default 10 s). */
  readonly replyTimeoutMs?: number;
  readonly bots?: number;
}

const LOOPBACK = /^(http|ws):\/\/127\.0\.0\.1:[0-9]{1,5}(\/[^\s]*)?$/;

interface Pending {
  resolve(): void;
  reject(error: BridgeFailure): void;
  timer: ReturnType<typeof setTimeout>;
}

function failure(message: string): BridgeFailure {
  return new BridgeFailure('practice.failed', message);
}

/** Checks a ready message against what main pinned for practice: same domain, this computer only. */
function endpointsOf(ready: Extract<PracticeEvent, { type: 'ready' }>): PracticeEndpoints {
  const urls = [ready.httpUrl, ready.marketWsUrl, ready.oracleWsUrl];
  if (!urls.every((u) => LOOPBACK.test(u)))
    throw failure('The practice exchange answered on an address off this computer, so practice did not start.');
  const sameDomain =
    BigInt(ready.chainId) === PRACTICE_CHAIN_ID &&
    ready.domain.name === PRACTICE_DOMAIN_NAME &&
    ready.domain.verifyingContract.toLowerCase() === PRACTICE_VERIFYING_CONTRACT.toLowerCase();
  if (!sameDomain)
    throw failure('The practice exchange named another signing domain than practice’s own, so practice did not start.');
  return {
    httpUrl: ready.httpUrl,
    marketWsUrl: ready.marketWsUrl,
    oracleWsUrl: ready.oracleWsUrl,
    markets: ready.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })),
    startupMs: ready.startupMs,
  };
}

export class PracticeHost {
  readonly #o: PracticeHostOptions;
  #worker: PracticeWorkerPort | null = null;
  #state: PracticeState = 'off';
  #stage: string | null = null;
  #problem: string | null = null;
  #endpoints: PracticeEndpoints | null = null;
  #starting: Promise<PracticeEndpoints> | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(status: PracticeHostStatus) => void>();

  constructor(options: PracticeHostOptions) {
    this.#o = options;
  }

  status(): PracticeHostStatus {
    return {
      state: this.#state,
      stage: this.#stage,
      startupMs: this.#endpoints?.startupMs ?? null,
      problem: this.#problem,
      endpoints: this.#endpoints,
    };
  }

  onChange(listener: (status: PracticeHostStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts the worker (or returns the running one's endpoints). `fresh` starts over: the running
   * worker is stopped and the journal removed by the worker before it opens it.
   */
  async start(fresh = false): Promise<PracticeEndpoints> {
    if (fresh) await this.stop();
    else if (this.#endpoints && this.#state === 'ready') return this.#endpoints;
    this.#starting ??= this.#spawn(fresh).finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** Credits play money to an account of the practice exchange (micro-dollars). */
  credit(account: string, amount: bigint): Promise<void> {
    return this.#request((id) => ({ type: 'credit', id, account, amount: amount.toString() }));
  }

  /** Stops the bots, the exchange and the oracle; the journal stays. Never throws. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    try {
      await this.#request((id) => ({ type: 'stop', id }));
    } catch {
      /* terminated below either way */
    }
    if (this.#worker === worker) await this.#end(null);
  }

  #set(state: PracticeState, stage: string | null, problem: string | null): void {
    this.#state = state;
    this.#stage = stage;
    this.#problem = problem;
    const status = this.status();
    for (const l of this.#listeners) l(status);
  }

  #spawn(fresh: boolean): Promise<PracticeEndpoints> {
    return new Promise<PracticeEndpoints>((resolve, reject) => {
      this.#endpoints = null;
      this.#set('starting', 'starting the practice exchange', null);
      let worker: PracticeWorkerPort;
      try {
        worker = this.#o.spawn({
          dataDir: this.#o.dataDir,
          fresh,
          ...(this.#o.bots === undefined ? {} : { bots: this.#o.bots }),
        });
      } catch (error) {
        this.#o.logger.error('practice.spawn_failed', {
          message: error instanceof Error ? error.message : 'non-error',
        });
        const why = failure('The practice exchange could not be started on this computer.');
        this.#set('failed', null, why.message);
        reject(why);
        return;
      }
      this.#worker = worker;
      let settled = false;
      const settle = (error: BridgeFailure | null, endpoints?: PracticeEndpoints): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(endpoints!);
      };
      const timer = setTimeout(() => {
        const why = failure('The practice exchange did not start within 30 seconds.');
        settle(why);
        void this.#end(why.message);
      }, this.#o.startTimeoutMs ?? 30_000);
      worker.on('message', (raw) => {
        if (this.#worker !== worker) return;
        const parsed = practiceEventSchema.safeParse(raw);
        if (!parsed.success) {
          this.#o.logger.warn('practice.bad_message', { issues: parsed.error.issues.length });
          return;
        }
        const event = parsed.data;
        switch (event.type) {
          case 'progress':
            if (this.#state === 'starting') this.#set('starting', event.stage, null);
            return;
          case 'ready':
            try {
              this.#endpoints = endpointsOf(event);
            } catch (error) {
              const why = error as BridgeFailure;
              settle(why);
              void this.#end(why.message);
              return;
            }
            this.#o.logger.info('timing.practice_ready', { ms: event.startupMs, markets: event.markets.length });
            this.#set('ready', null, null);
            settle(null, this.#endpoints);
            return;
          case 'reply':
            this.#reply(event.id, event.ok, event.message);
            return;
          case 'fatal': {
            const why = failure(`Practice stopped: ${event.message}`);
            settle(why);
            void this.#end(why.message);
            return;
          }
        }
      });
      worker.on('error', (error) => {
        if (this.#worker !== worker) return;
        this.#o.logger.error('practice.worker_error', { message: error.message.slice(0, 200) });
        const why = failure('The practice exchange stopped on an error; the log says which.');
        settle(why);
        void this.#end(why.message);
      });
      worker.on('exit', (code) => {
        if (this.#worker !== worker) return;
        const why = failure(`The practice exchange stopped (exit code ${code}).`);
        settle(why);
        void this.#end(why.message, false);
      });
    });
  }

  #request(make: (id: number) => PracticeRequest): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#state !== 'ready')
      return Promise.reject(
        new BridgeFailure('practice.not_running', 'Practice is not running: choose Practice to start it.'),
      );
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(failure('The practice exchange did not answer in time; nothing changed.'));
      }, this.#o.replyTimeoutMs ?? 10_000);
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage(make(id));
    });
  }

  #reply(id: number, ok: boolean, message: string | undefined): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (ok) pending.resolve();
    else pending.reject(new BridgeFailure('practice.refused', message ?? 'The practice exchange refused that.'));
  }

  /** Forgets the worker (terminating it unless it already exited) and says why, or that it is off. */
  async #end(problem: string | null, terminate = true): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#endpoints = null;
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(failure(problem ?? 'Practice stopped.'));
      this.#pending.delete(id);
    }
    this.#set(problem ? 'failed' : 'off', null, problem);
    if (worker && terminate) await worker.terminate().catch(() => 0);
  }
}
