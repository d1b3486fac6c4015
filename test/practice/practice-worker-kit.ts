/**
 * Starts the practice worker the way main does (a worker thread, a PracticeStart as workerData) and
 * speaks src/shared/practice.ts to it: from its TypeScript source under tsx (tests) or from the built
 * out/main/practice-worker.js (benches). Every event is parsed with practiceEventSchema.
 */
import { Worker } from 'node:worker_threads';
import {
  practiceEventSchema,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStart,
} from '../../src/shared/practice';

export const PRACTICE_WORKER_SOURCE = new URL('../../src/practice/worker.ts', import.meta.url);
export const PRACTICE_WORKER_BUILT = new URL('../../out/main/practice-worker.js', import.meta.url);
const TS_BOOT = new URL('./ts-worker-boot.mjs', import.meta.url);

type Ready = Extract<PracticeEvent, { type: 'ready' }>;
type Reply = Extract<PracticeEvent, { type: 'reply' }>;

export interface PracticeWorkerRun {
  worker: Worker;
  /** Every event so far, in order. */
  events: PracticeEvent[];
  ready: Promise<Ready>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** Sends a request and waits for the reply with its id. */
  request(req: PracticeRequest): Promise<Reply>;
  /** Posts anything (malformed messages too). */
  post(raw: unknown): void;
  /** The reply to `id`, once it arrives. */
  replyTo(id: number): Promise<Reply>;
  /** Asks the worker to stop and waits until it has exited. */
  stop(): Promise<void>;
}

export function startPracticeWorker(
  start: PracticeStart,
  /** 'source' (tsx), 'built' (out/main/practice-worker.js) or a built file elsewhere (a packed app's). */
  from: 'source' | 'built' | URL = 'source',
  // Messages that do not parse as PracticeEvents land here (a test expects none).
  strays: unknown[] = [],
): PracticeWorkerRun {
  const worker =
    from === 'source'
      ? new Worker(TS_BOOT, { workerData: start, argv: [PRACTICE_WORKER_SOURCE.href] })
      : new Worker(from === 'built' ? PRACTICE_WORKER_BUILT : from, { workerData: start });
  const events: PracticeEvent[] = [];
  const waiters = new Map<number, (r: Reply) => void>();
  const replies = new Map<number, Reply>();
  let resolveReady!: (r: Ready) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<Ready>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);
  worker.on('message', (raw: unknown) => {
    const parsed = practiceEventSchema.safeParse(raw);
    if (!parsed.success) {
      strays.push(raw);
      return;
    }
    const e = parsed.data;
    events.push(e);
    if (e.type === 'ready') resolveReady(e);
    else if (e.type === 'fatal') rejectReady(new Error(`practice worker fatal: ${e.message}`));
    else if (e.type === 'reply') {
      replies.set(e.id, e);
      waiters.get(e.id)?.(e);
    }
  });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.once('error', (e) => rejectReady(e));
  void exited.then((code) => rejectReady(new Error(`practice worker exited (${code}) before ready`)));

  const replyTo = (id: number): Promise<Reply> =>
    new Promise((resolve) => {
      const have = replies.get(id);
      if (have) resolve(have);
      else waiters.set(id, resolve);
    });
  let nextStopId = 1_000_000;
  return {
    worker,
    events,
    ready,
    exited,
    replyTo,
    post: (raw) => worker.postMessage(raw),
    request(req) {
      worker.postMessage(req);
      return replyTo(req.id);
    },
    async stop() {
      const id = nextStopId++;
      worker.postMessage({ type: 'stop', id });
      await Promise.race([replyTo(id), exited]);
      await exited;
    },
  };
}
