/**
 * Starts bench/devnet-child.ts as a child process (the app runs its devnet beside main, never inside
 * it) and gives the UI benches what they need of it: endpoints, markets, funded demo accounts, and
 * crediting an account.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DevnetContracts } from '../src/devnet/chain';
import type { Hex } from '../src/shared/protocol';

interface WireEndpoint {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  rpcUrl: string;
  chainId: string;
  domainName: string;
  contracts: DevnetContracts;
  markets: { assetId: string; symbol: string }[];
  accounts: { label: string; address: string; privateKey: Hex }[];
}

export type ParentMessage =
  | { type: 'credit'; id: number; address: string; amount: string }
  | { type: 'bots'; id: number; on: boolean }
  | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; endpoint: WireEndpoint }
  | { type: 'credited'; id: number; error: string | null }
  | { type: 'bots'; id: number; error: string | null };

export interface DevnetProcess {
  readonly httpUrl: string;
  readonly marketWsUrl: string;
  readonly oracleWsUrl: string;
  readonly rpcUrl: string;
  readonly chainId: bigint;
  readonly domainName: string;
  readonly contracts: DevnetContracts;
  readonly markets: readonly { assetId: bigint; symbol: string }[];
  readonly accounts: readonly { label: string; address: string; privateKey: Hex }[];
  /** Credits `amount` (protocol units) to an exchange account, as a confirmed deposit would. */
  credit(address: string, amount: bigint): Promise<void>;
  /** Turns the devnet's three liquidity bots on (quoting and trading every market) or off. */
  bots(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

export async function startDevnetProcess(): Promise<DevnetProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'ui-bench-devnet-'));
  const child = fork(resolve('bench/devnet-child.ts'), [dir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let endpoint: WireEndpoint;
  try {
    endpoint = await new Promise<WireEndpoint>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error('the bench devnet did not start in time')), START_TIMEOUT_MS);
      child.once('exit', (code) => fail(new Error(`the bench devnet exited (code ${code}) before it was ready`)));
      child.on('message', (m: ChildMessage) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          ready(m.endpoint);
        } else {
          const waiter = pending.get(m.id);
          pending.delete(m.id);
          if (m.error === null) waiter?.resolve();
          else waiter?.reject(new Error(m.error));
        }
      });
    });
  } catch (error) {
    child.kill();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const send = (m: ParentMessage): void => void child.send(m);
  return {
    ...endpoint,
    chainId: BigInt(endpoint.chainId),
    markets: endpoint.markets.map((m) => ({ assetId: BigInt(m.assetId), symbol: m.symbol })),
    credit: (address, amount) =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send({ type: 'credit', id, address, amount: amount.toString() });
      }),
    bots: (on) =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send({ type: 'bots', id, on });
      }),
    async stop() {
      if (child.connected) send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
