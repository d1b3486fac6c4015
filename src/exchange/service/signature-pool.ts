// Asynchronous signature checks for the routes. Checks requested during one event-loop turn are
// verified together (SignatureVerifier.verifyBatch shares the two modular inversions of each check),
// either on this thread (workers: 0) or on worker threads (workers ≥ 1), which takes the dominant
// per-order cost off the thread that parses HTTP, hashes, matches and journals. The pool only answers
// "is this signature valid?": everything that depends on state (single use of digests, nonces,
// agents) is decided by the caller after the answer arrives, on the main thread.
import { Worker } from 'node:worker_threads';
import { SignatureVerifier, type SignatureToCheck, type SignatureVerifierOptions } from './signature-verifier';

export interface SignaturePoolOptions {
  /** Worker threads; 0 verifies on the calling thread. */
  workers?: number;
  /** Most checks sent in one batch. Default 64. */
  maxBatch?: number;
  /**
   * With every worker busy and at least this many checks waiting, this thread verifies a batch
   * itself instead of waiting (0 = never). Default 6. See dispatch().
   */
  stealAt?: number;
  verifier?: SignatureVerifierOptions;
  /** A worker failed: its checks and all later ones are verified on this thread. */
  onError?: (err: unknown) => void;
}

export interface SignatureChecker {
  verify(digest: Uint8Array, signature: string, signer: string): Promise<boolean>;
  /** Checks against a cached key vs full recoveries, summed over every thread. */
  readonly stats: { fast: number; recovered: number };
  /** Worker threads currently verifying (0 when everything runs on this thread). */
  readonly workers: number;
  close(): Promise<void>;
}

interface Job extends SignatureToCheck {
  resolve(ok: boolean): void;
}

/** Message to a worker: digests packed into one buffer (32 bytes each). */
export interface WorkerRequest {
  id: number;
  digests: Uint8Array;
  signatures: string[];
  signers: string[];
}

export interface WorkerReply {
  id: number;
  results?: Uint8Array;
  fast?: number;
  recovered?: number;
  error?: string;
}

interface Slot {
  worker: Worker;
  busy: Job[] | null;
  id: number;
}

/** Most checks this thread takes at once when the workers lag. */
const STEAL_BATCH = 8;
const BOOT = new URL('./signature-worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./signature-worker.ts', import.meta.url).href;

export class SignaturePool implements SignatureChecker {
  readonly stats = { fast: 0, recovered: 0 };
  private readonly verifierOptions: SignatureVerifierOptions;
  /** This thread's verifier: the workers: 0 path, and the fallback if a worker dies. Built on first use. */
  private localVerifier: SignatureVerifier | undefined;
  private readonly maxBatch: number;
  private readonly stealAt: number;
  private readonly onError: (err: unknown) => void;
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private scheduled = false;
  private closed = false;
  private localSeen = { fast: 0, recovered: 0 };

  private constructor(opts: SignaturePoolOptions) {
    this.maxBatch = opts.maxBatch ?? 64;
    this.stealAt = opts.stealAt ?? 6;
    this.onError = opts.onError ?? (() => undefined);
    this.verifierOptions = opts.verifier ?? {};
  }

  /** Starts the pool; resolves once every worker has built its tables and is ready. */
  static async start(opts: SignaturePoolOptions = {}): Promise<SignaturePool> {
    const pool = new SignaturePool(opts);
    const n = opts.workers ?? 0;
    if (!Number.isInteger(n) || n < 0) throw new RangeError('workers must be a non-negative integer.');
    const started = await Promise.allSettled(Array.from({ length: n }, () => startWorker(pool.verifierOptions)));
    for (const s of started) {
      if (s.status === 'fulfilled') pool.attach(s.value);
      else pool.onError(s.reason);
    }
    // Without a worker every check runs here: build this thread's G table now, so no request pays
    // the ~0.3 s. With one, it is built on the first stolen batch (a devnet at rest never steals).
    if (pool.slots.length === 0) pool.local();
    return pool;
  }

  get workers(): number {
    return this.slots.length;
  }

  verify(digest: Uint8Array, signature: string, signer: string): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ digest, signature, signer, resolve });
      this.schedule();
    });
  }

  /** Dispatch after the poll phase: every request read in this turn joins the batch. */
  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      const jobs = s.busy;
      s.busy = null; // a late reply of the terminating worker is ignored
      if (jobs !== null) this.runLocal(jobs);
    }
    this.dispatch();
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private attach(worker: Worker): void {
    const slot: Slot = { worker, busy: null, id: 0 };
    worker.on('message', (m: WorkerReply) => {
      const jobs = slot.busy;
      if (jobs === null || m.id !== slot.id) return;
      slot.busy = null;
      worker.unref();
      if (m.results === undefined) {
        this.onError(new Error(`signature worker: ${m.error ?? 'no results'}`));
        this.runLocal(jobs);
      } else {
        this.stats.fast += m.fast ?? 0;
        this.stats.recovered += m.recovered ?? 0;
        for (let i = 0; i < jobs.length; i++) jobs[i]!.resolve(m.results[i] === 1);
      }
      this.dispatch();
    });
    const drop = (err: unknown): void => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      if (!this.closed) this.onError(err);
      if (slot.busy !== null) this.runLocal(slot.busy);
      slot.busy = null;
      this.dispatch();
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`signature worker exited with code ${code}`)));
    // An idle pool never keeps the process alive; a worker is ref'd only while it holds checks.
    worker.unref();
    this.slots.push(slot);
  }

  /**
   * Hands queued checks to idle workers (one batch in flight each, so batches grow under load). If the
   * workers still lag (every one busy, `stealAt` or more checks waiting) this thread verifies one batch
   * itself: on a shared machine where the worker gets little CPU, the queue would otherwise only grow,
   * and when the worker keeps up the queue stays short and this thread only does HTTP, parse and hash.
   */
  private dispatch(): void {
    if (this.queue.length === 0) return;
    if (this.slots.length === 0) {
      const jobs = this.queue;
      this.queue = [];
      this.runLocal(jobs);
      return;
    }
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.busy !== null) continue;
      const jobs = this.queue.splice(0, this.maxBatch);
      const digests = new Uint8Array(32 * jobs.length);
      const signatures: string[] = [];
      const signers: string[] = [];
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        // verify() rejects a digest that is not 32 bytes; keep that answer here too.
        if (j.digest.length === 32) digests.set(j.digest, 32 * i);
        signatures.push(j.digest.length === 32 ? j.signature : '');
        signers.push(j.signer);
      }
      slot.busy = jobs;
      slot.id++;
      slot.worker.ref();
      const msg: WorkerRequest = { id: slot.id, digests, signatures, signers };
      slot.worker.postMessage(msg, [digests.buffer]);
    }
    if (this.stealAt > 0 && this.slots.length > 0 && this.queue.length >= this.stealAt) {
      // A small batch (≤ 8 checks, ~2 ms), then I/O gets a turn before the next one.
      this.runLocal(this.queue.splice(0, STEAL_BATCH));
      this.schedule();
    }
  }

  private local(): SignatureVerifier {
    this.localVerifier ??= new SignatureVerifier(this.verifierOptions);
    return this.localVerifier;
  }

  private runLocal(jobs: Job[]): void {
    const local = this.local();
    for (let i = 0; i < jobs.length; i += this.maxBatch) {
      const part = jobs.slice(i, i + this.maxBatch);
      let results: boolean[];
      try {
        results = local.verifyBatch(part);
      } catch (e) {
        this.onError(e);
        results = part.map(() => false);
      }
      for (let k = 0; k < part.length; k++) part[k]!.resolve(results[k]!);
    }
    this.syncLocalStats();
  }

  private syncLocalStats(): void {
    const now = this.local().stats;
    this.stats.fast += now.fast - this.localSeen.fast;
    this.stats.recovered += now.recovered - this.localSeen.recovered;
    this.localSeen = { ...now };
  }
}

/** One worker running signature-worker.ts; resolves when its verifier (G table) is built. */
function startWorker(verifier: SignatureVerifierOptions): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY, verifier } });
    const fail = (err: unknown): void => {
      cleanup();
      void worker.terminate();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onExit = (code: number): void => fail(new Error(`signature worker exited with code ${code} while starting`));
    const onMessage = (m: unknown): void => {
      if (typeof m === 'object' && m !== null && (m as { ready?: boolean }).ready === true) {
        cleanup();
        resolve(worker);
      }
    };
    const cleanup = (): void => {
      worker.off('error', fail);
      worker.off('exit', onExit);
      worker.off('message', onMessage);
    };
    worker.on('error', fail);
    worker.on('exit', onExit);
    worker.on('message', onMessage);
  });
}
