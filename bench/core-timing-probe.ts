/**
 * Timestamps the app core's side of an order, in the process the core runs in: each orders.place
 * call reaching the core (src/main/core/probe.ts), the order gate, the first socket write of its POST
 * to the exchange, the first bytes of the exchange's answer on that socket and main emitting
 * orderAnswered; and what held the window up (bench/tail-causes.ts). Used by the hotkey bench's core,
 * in the bench process or in one of its own (bench/hotkey-core-child.ts).
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { coreProbe } from '../src/main/core/probe';
import { keccakEngineName } from '../src/shared/protocol/keccak';
import { signingEngineName } from '../src/shared/protocol/signing';
import { tailCauses, type WindowCauses } from './tail-causes';

/**
 * Epoch ms: the call reached the core, the order gate began and passed it, its POST's first write;
 * what held the core → wire window up, and what held the gate's own window up (`gate`).
 */
export type OrderTiming = {
  core: number;
  gateIn: number;
  gateOut: number;
  wire: number;
  gate: WindowCauses;
  /** UI_BENCH_CALIBRATE=1: ms to read one number from each of CALIBRATION_PAGES pages, just before the gate. */
  calibration: number;
} & WindowCauses;

/**
 * The machine's floor for a short window of memory reads (UI_BENCH_CALIBRATE=1): one number read from
 * each of this many buffers of their own (so from as many memory pages), about as many as the gate's
 * objects, timed at the gate's moment in each order. Opt-in: the reads are inside core → wire.
 */
export const CALIBRATION_PAGES = 24;

export interface CoreTimingProbe {
  /** Whether run-queue waits are measured (UI_BENCH_SCHED=1 on Linux). */
  readonly sched: boolean;
  engines(): Promise<{ signing: string; keccak: string }>;
  onOrder(listener: (timing: OrderTiming) => void): void;
  /** When the exchange's answer to the last order reached the core, and when main emitted it to the window. */
  onAnswer(listener: (at: { answer: number; emitted: number }) => void): void;
  stop(): void;
}

const epochNow = (): number => performance.timeOrigin + performance.now();

/** Hooks this process's sockets and the core's probe; `exchangeHttpUrl` picks the exchange's requests. */
export function installCoreTimingProbe(exchangeHttpUrl: string): CoreTimingProbe {
  const orderListeners: ((t: OrderTiming) => void)[] = [];
  const answerListeners: ((at: { answer: number; emitted: number }) => void)[] = [];
  const exchangeHost = new RegExp(`\\r\\nhost: [^\\r]*:${new URL(exchangeHttpUrl).port}\\r\\n`, 'i');
  const causes = tailCauses();
  const gateCauses = tailCauses();
  const calibrate = process.env['UI_BENCH_CALIBRATE'] === '1';
  const pages = Array.from({ length: CALIBRATION_PAGES }, (_, i) => new Float64Array(8_192).fill(i));
  let calibration = NaN;
  let sink = 0;
  let armed = false;
  let core = NaN;
  let gateIn = NaN;
  let gateOut = NaN;
  coreProbe.onInvoke = (method) => {
    if (method === 'orders.place') {
      core = epochNow();
      gateIn = gateOut = NaN;
      causes.open();
      armed = true;
    }
  };
  coreProbe.onGate = (phase) => {
    if (!armed) return;
    // The causes' reads (UI_BENCH_SCHED=1) are made outside the gate's timed window.
    if (phase === 'enter') {
      if (calibrate) {
        const t0 = performance.now();
        for (const page of pages) sink += page[(sink & 7) * 1_000]!;
        calibration = performance.now() - t0;
      }
      gateCauses.open();
      gateIn = epochNow();
    } else {
      gateOut = epochNow();
      gateCauses.close();
    }
  };
  // The first bytes of the answer on the order's socket (the exchange has answered), then the
  // orderAnswered event main emits with it (what the window shows the answer from).
  let answering: net.Socket | null = null;
  let answeredAt = NaN;
  coreProbe.onEmit = (event) => {
    if (event !== 'orderAnswered' || Number.isNaN(answeredAt)) return;
    const at = { answer: answeredAt, emitted: epochNow() };
    answeredAt = NaN;
    for (const l of answerListeners) l(at);
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(this)
  const origWrite = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
    if (armed) {
      // The socket may still be connecting (no remotePort yet): recognise the request by its head.
      const head =
        typeof args[0] === 'string'
          ? args[0].slice(0, 1024)
          : Buffer.isBuffer(args[0])
            ? args[0].subarray(0, 1024).toString('latin1')
            : '';
      if (head.startsWith('POST ') && exchangeHost.test(head)) {
        // eslint-disable-next-line @typescript-eslint/no-this-alias -- the socket its answer will arrive on
        answering = this;
        causes.close();
        const at = { core, gateIn, gateOut, wire: epochNow(), calibration };
        armed = false;
        // Reported after the window (GC entries arrive asynchronously), never inside it.
        setTimeout(() => {
          const timing = { ...at, ...causes.last(), gate: gateCauses.last() };
          for (const l of orderListeners) l(timing);
        }, 20);
      }
    }
    return origWrite.apply(this, args);
  } as net.Socket['write'];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(this)
  const origEmit = net.Socket.prototype.emit;
  net.Socket.prototype.emit = function (this: net.Socket, event: string | symbol, ...args: unknown[]) {
    if (event === 'data' && this === answering) {
      answering = null;
      answeredAt = epochNow();
    }
    return origEmit.apply(this, [event, ...args] as Parameters<net.Socket['emit']>);
  } as net.Socket['emit'];

  return {
    sched: causes.sched,
    engines: () => Promise.resolve({ signing: signingEngineName(), keccak: keccakEngineName() }),
    onOrder: (listener) => void orderListeners.push(listener),
    onAnswer: (listener) => void answerListeners.push(listener),
    stop() {
      causes.stop();
      gateCauses.stop();
      net.Socket.prototype.write = origWrite;
      net.Socket.prototype.emit = origEmit;
      coreProbe.onInvoke = null;
      coreProbe.onGate = null;
      coreProbe.onEmit = null;
    },
  };
}
