/**
 * The costly part of reading an emergency kit: its 2,000 entries' schema (tens of ms) and up to
 * 2,001 signature recoveries with their digests (src/client/airgap/kit.ts kitChecks: seconds), which
 * once held main's event loop and every other call with it (issue 27). They run here, off the loop:
 * on a worker thread (kit-worker.ts, built to out/main/kit-worker.js) when main was given one, else
 * (or once a worker failed) the signatures in slices of a few milliseconds between turns of the
 * loop. Callers check the cheap facts first (size, format, the pin, a slot: kit-receive.ts), so only
 * a kit worth keeping costs this.
 *
 * Bounded: the window may have one check running at a time, the next is refused (kit.busy), as
 * keystores are; main's own checks (kits read back from the store, a file the person picked in
 * main's dialog) queue instead.
 */
import type { Worker } from 'node:worker_threads';
import { AirgapError, kitChecks, readEmergencyKit, type AirgapErrorCode, type EmergencyKit } from '../../../client';
import { makeExchangeDomain, type Hex } from '../../../shared/protocol';
import type { Logger } from '../../log';
import { BridgeFailure } from '../bridge-runtime';

/** Who asked: the window (one at a time) or main itself (queued). */
export type KitCheckFor = 'window' | 'main';

export interface KitChecks {
  /**
   * The kit in `text` (its JSON) and its digests (kitDigests' order), read and checked in full as
   * parseEmergencyKit does, or the AirgapError that throws. Refused at once (kit.busy) when the
   * window asks while another of its checks runs.
   */
  check(text: string, who: KitCheckFor): Promise<CheckedKit>;
  /**
   * Throws kit.busy now when the window asks while another of its checks runs: callers ask before
   * reading the text, so a burst of large kits costs main one read, not one per kit.
   */
  assertFree(who: KitCheckFor): void;
  close(): Promise<void>;
}

export interface CheckedKit {
  readonly kit: EmergencyKit;
  readonly digests: Hex[];
}

/** The worker's protocol (kit-worker.ts). */
export interface KitCheckRequest {
  readonly id: number;
  readonly text: string;
}
export type KitCheckReply =
  | { readonly id: number; readonly kit: EmergencyKit; readonly digests: Hex[] }
  | { readonly id: number; readonly refusal: { readonly code: string; readonly sentence: string } }
  | { readonly id: number; readonly fault: string };

/** Longest stretch the in-thread fallback holds the loop: one entry (a few ms) may run past it. */
const SLICE_MS = 4;
/** An idle worker is stopped after this long; the next kit starts another (about 100 ms). */
const IDLE_MS = 30_000;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The whole check on this thread: the entries' schema in one turn (tens of ms for 2,000), then
 * kitChecks handing the loop back every SLICE_MS.
 */
export async function checkKitInSlices(text: string): Promise<CheckedKit> {
  const kit = readEmergencyKit(JSON.parse(text));
  const steps = kitChecks(kit);
  for (;;) {
    await yieldToLoop();
    const until = performance.now() + SLICE_MS;
    for (;;) {
      const step = steps.next();
      if (step.done) return { kit, digests: step.value };
      if (performance.now() >= until) break;
    }
  }
}

interface Job {
  readonly text: string;
  readonly resolve: (checked: CheckedKit) => void;
  readonly reject: (error: unknown) => void;
}

export interface KitChecksOptions {
  /** Starts the worker (kit-worker.ts); without it every check runs on this thread, in slices. */
  readonly spawn?: () => Worker;
  readonly logger?: Logger;
}

export function createKitChecks(options: KitChecksOptions = {}): KitChecks {
  let spawn = options.spawn ?? null;
  let worker: Worker | null = null;
  let idle: ReturnType<typeof setTimeout> | null = null;
  let nextId = 0;
  let fromWindow = 0;
  const jobs = new Map<number, Job>();

  const busy = (): BridgeFailure =>
    new BridgeFailure(
      'kit.busy',
      'Another emergency kit is being checked now: try again in a few seconds, once it is done.',
    );

  /** The worker failed (could not start, crashed): its checks and every later one run on this thread. */
  const fallBack = (reason: string): void => {
    options.logger?.warn('kit.check_worker_failed', { message: reason.slice(0, 300) });
    spawn = null;
    const stranded = [...jobs.values()];
    jobs.clear();
    void worker?.terminate();
    worker = null;
    for (const job of stranded) checkKitInSlices(job.text).then(job.resolve, job.reject);
  };

  const onReply = (reply: KitCheckReply): void => {
    const job = jobs.get(reply.id);
    if (!job) return;
    jobs.delete(reply.id);
    // A cloned domain is a plain object: made again, frozen, so its separator is cached as any other.
    if ('digests' in reply)
      job.resolve({ kit: { ...reply.kit, domain: makeExchangeDomain(reply.kit.domain) }, digests: reply.digests });
    else if ('refusal' in reply)
      job.reject(new AirgapError(reply.refusal.code as AirgapErrorCode, reply.refusal.sentence));
    else job.reject(new Error(`The emergency kit could not be checked: ${reply.fault}`));
    if (jobs.size === 0) {
      // Unref'd: an idle worker never keeps the process alive, and goes after a while.
      idle = setTimeout(() => {
        idle = null;
        void worker?.terminate();
        worker = null;
      }, IDLE_MS);
      idle.unref();
    }
  };

  const started = (): Worker | null => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (worker || !spawn) return worker;
    try {
      const w = spawn();
      w.unref();
      w.on('message', onReply);
      w.on('error', (error) => fallBack(error instanceof Error ? error.message : String(error)));
      w.on('exit', (code) => {
        if (worker === w && jobs.size > 0) fallBack(`the worker exited with code ${code}`);
        if (worker === w) worker = null;
      });
      worker = w;
    } catch (error) {
      fallBack(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };

  const run = (text: string): Promise<CheckedKit> => {
    const w = started();
    if (!w) return checkKitInSlices(text);
    return new Promise<CheckedKit>((resolve, reject) => {
      const id = nextId++;
      jobs.set(id, { text, resolve, reject });
      const request: KitCheckRequest = { id, text };
      w.postMessage(request);
    });
  };

  const assertFree = (who: KitCheckFor): void => {
    if (who === 'window' && fromWindow > 0) throw busy();
  };

  return {
    assertFree,
    async check(text, who) {
      assertFree(who);
      if (who === 'window') fromWindow++;
      try {
        return await run(text);
      } finally {
        if (who === 'window') fromWindow--;
      }
    },
    async close() {
      if (idle) clearTimeout(idle);
      idle = null;
      spawn = null;
      const w = worker;
      worker = null;
      for (const job of jobs.values()) job.reject(new Error('The emergency kit checks were closed.'));
      jobs.clear();
      await w?.terminate();
    },
  };
}
