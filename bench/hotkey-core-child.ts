/**
 * The app core for the hotkey bench, in a process of its own like Electron's main: the harness
 * server and the core, nothing else (Playwright, the page's bindings and the bench loop stay in the
 * bench process, the devnet in its own). It timestamps each orders.place call reaching the core and
 * the first socket write of its POST to the exchange (and the first bytes of the exchange's answer on
 * that socket), and reports them, with what held the window up
 * (bench/tail-causes.ts), over the IPC channel. Forked by bench/hotkey-core-process.ts.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { startCoreServer, type HarnessDevnet } from '../e2e/harness/core-server';
import { coreProbe } from '../src/main/core/probe';
import { keccakEngineName } from '../src/shared/protocol/keccak';
import { signingEngineName } from '../src/shared/protocol/signing';
import type { CoreChildMessage, CoreParentMessage, WireDevnet } from './hotkey-core-process';
import { tailCauses } from './tail-causes';

if (process.send === undefined) throw new Error('forked by bench/hotkey-core-process.ts');
const send = (m: CoreChildMessage): void => void process.send!(m);
const epochNow = (): number => performance.timeOrigin + performance.now();

const wire = JSON.parse(process.argv[2] ?? '') as WireDevnet;
const devnet: HarnessDevnet = {
  ...wire,
  chainId: BigInt(wire.chainId),
  markets: wire.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })),
};
const server = await startCoreServer({ devnet });

const exchangeHost = new RegExp(`\\r\\nhost: [^\\r]*:${new URL(devnet.httpUrl).port}\\r\\n`, 'i');
const causes = tailCauses();
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
  if (phase === 'enter') gateIn = epochNow();
  else gateOut = epochNow();
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
      const at = { core, gateIn, gateOut, wire: epochNow() };
      armed = false;
      // Reported after the window (GC entries arrive asynchronously), never inside it.
      setTimeout(() => send({ type: 'order', ...at, ...causes.last() }), 20);
    }
  }
  return origWrite.apply(this, args);
} as net.Socket['write'];

// The first bytes of the answer on that socket (the exchange has answered), then the orderAnswered
// event main emits with it (what the window shows the answer from).
let answering: net.Socket | null = null;
let answeredAt = NaN;
coreProbe.onEmit = (event) => {
  if (event !== 'orderAnswered' || Number.isNaN(answeredAt)) return;
  send({ type: 'answer', answer: answeredAt, emitted: epochNow() });
  answeredAt = NaN;
};
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(this)
const origEmit = net.Socket.prototype.emit;
net.Socket.prototype.emit = function (this: net.Socket, event: string | symbol, ...args: unknown[]) {
  if (event === 'data' && this === answering) {
    answering = null;
    answeredAt = epochNow();
  }
  return origEmit.apply(this, [event, ...args] as Parameters<net.Socket['emit']>);
} as net.Socket['emit'];

process.on('message', (m: CoreParentMessage) => {
  if (m.type === 'engines') send({ type: 'engines', signing: signingEngineName(), keccak: keccakEngineName() });
  else if (m.type === 'stop') {
    causes.stop();
    void server.close().finally(() => process.exit(0));
  }
});
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
send({ type: 'ready', url: server.url, token: server.token, backend: server.backend(), sched: causes.sched });
