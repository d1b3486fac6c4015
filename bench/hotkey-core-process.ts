/** Starts bench/hotkey-core-child.ts (the core in a process of its own) and relays what it reports. */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { HarnessDevnet } from '../e2e/harness/core-server';
import type { CoreTimingProbe, OrderTiming } from './core-timing-probe';

export type WireDevnet = Omit<HarnessDevnet, 'chainId' | 'markets'> & {
  chainId: string;
  markets: { assetId: string; symbol: string }[];
};
export type CoreParentMessage = { type: 'engines' } | { type: 'stop' };
export type CoreChildMessage =
  | { type: 'ready'; url: string; token: string; backend: 'keychain' | 'file'; sched: boolean }
  | { type: 'engines'; signing: string; keccak: string }
  | ({ type: 'order' } & OrderTiming)
  /** The first bytes of the exchange's answer to that POST reached the core, and main emitted it (epoch ms). */
  | { type: 'answer'; answer: number; emitted: number };

export interface HotkeyCoreProcess extends Omit<CoreTimingProbe, 'stop'> {
  readonly url: string;
  readonly token: string;
  readonly backend: () => 'keychain' | 'file';
  close(): Promise<void>;
}

export async function startHotkeyCoreProcess(devnet: HarnessDevnet): Promise<HotkeyCoreProcess> {
  const wire: WireDevnet = {
    ...devnet,
    chainId: devnet.chainId.toString(),
    markets: devnet.markets.map((m) => ({ assetId: m.assetId.toString(), symbol: m.symbol })),
  };
  const child = fork(resolve('bench/hotkey-core-child.ts'), [JSON.stringify(wire)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const orderListeners: ((t: OrderTiming) => void)[] = [];
  const answerListeners: ((at: { answer: number; emitted: number }) => void)[] = [];
  let engineWaiter: ((e: { signing: string; keccak: string }) => void) | null = null;
  const ready = await new Promise<Extract<CoreChildMessage, { type: 'ready' }>>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`the bench core exited (code ${code}) before it was ready`)));
    child.on('message', (m: CoreChildMessage) => {
      if (m.type === 'ready') done(m);
      else if (m.type === 'engines') engineWaiter?.(m);
      else if (m.type === 'answer') for (const l of answerListeners) l({ answer: m.answer, emitted: m.emitted });
      else {
        const { type: _type, ...timing } = m;
        for (const l of orderListeners) l(timing);
      }
    });
  });
  const send = (m: CoreParentMessage): void => void child.send(m);
  return {
    url: ready.url,
    token: ready.token,
    backend: () => ready.backend,
    sched: ready.sched,
    engines: () =>
      new Promise((done) => {
        engineWaiter = done;
        send({ type: 'engines' });
      }),
    onOrder: (listener) => void orderListeners.push(listener),
    onAnswer: (listener) => void answerListeners.push(listener),
    async close() {
      if (child.connected) send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
