// A stand-in for the practice worker (src/practice, built to out/main/practice-worker.js) for node
// tests: it runs the devnet's exchange service without a chain under practice's own domain, one
// liquidity bot funded by in-process credits, and speaks the worker's messages (src/shared/practice.ts)
// on an in-process port, so PracticeHost and the core are tested before (and beside) the real worker.
import { EventEmitter } from 'node:events';
import { Wallet } from 'ethers';
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_VERIFYING_CONTRACT,
  practiceRequestSchema,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStart,
} from '../../src/shared/practice';
import type { Address, Hex } from '../../src/shared/protocol';
import { startExchangeService, type ExchangeServiceHandle } from '../../src/exchange/service/service';
import { botProfile, startLiquidityBot, type LiquidityBot } from '../../src/exchange/bots';
import { createClientVenue } from '../../src/exchange/bots/client-venue';
import { defineMarket, DEVNET_SYMBOLS } from '../../src/exchange/markets';
import type { PracticeWorkerPort } from '../../src/main/core/practice';

const LEDGER = '0x000000000000000000000000000000000000dEaD' as Address;
const NONE = '0x0000000000000000000000000000000000000001' as Address;
/** One fixed bot key: the double's bot trades the same account across restarts. */
const BOT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex;

export interface WorkerDoubleOptions {
  /** Liquidity bots (0 or 1 here). */
  bots?: number;
  /** Rewrites each event before main sees it (tests of a hostile or broken worker). */
  tamper?: (event: PracticeEvent) => unknown;
}

export interface WorkerDouble {
  readonly spawn: (start: PracticeStart) => PracticeWorkerPort;
  /** Workers spawned so far, with what main handed each. */
  readonly spawned: PracticeStart[];
  /** The running exchange, for checks from the test's side. */
  exchange(): ExchangeServiceHandle | null;
  /** Ends the running double as a crashed worker would (exit code 1). */
  crash(): Promise<void>;
  stopAll(): Promise<void>;
}

export function practiceWorkerDouble(options: WorkerDoubleOptions = {}): WorkerDouble {
  const spawned: PracticeStart[] = [];
  let current: { svc: ExchangeServiceHandle | null; bot: LiquidityBot | null; port: EventEmitter } | null = null;

  const stopRun = async (run: NonNullable<typeof current>): Promise<void> => {
    await run.bot?.stop();
    await run.svc?.stop();
    run.bot = null;
    run.svc = null;
  };

  const spawn = (start: PracticeStart): PracticeWorkerPort => {
    spawned.push(start);
    const port = new EventEmitter();
    const run = { svc: null as ExchangeServiceHandle | null, bot: null as LiquidityBot | null, port };
    current = run;
    const send = (event: PracticeEvent): void => {
      const out = options.tamper ? options.tamper(event) : event;
      setImmediate(() => port.emit('message', structuredClone(out)));
    };
    const began = Date.now();
    void (async () => {
      try {
        send({ type: 'progress', stage: 'starting the exchange', elapsedMs: 0 });
        const svc = await startExchangeService({
          dataDir: start.dataDir,
          fresh: start.fresh,
          chainId: PRACTICE_CHAIN_ID,
          verifyingContract: PRACTICE_VERIFYING_CONTRACT,
          domainName: PRACTICE_DOMAIN_NAME,
          ledger: LEDGER,
          markets: (genesisSec) => {
            const startTime = genesisSec - (genesisSec % 300n);
            return {
              symbols: [DEVNET_SYMBOLS.BTC, DEVNET_SYMBOLS.ETH],
              markets: [
                defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime, periodLength: 60n }),
                defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime, periodLength: 300n }),
                defineMarket({ symbol: DEVNET_SYMBOLS.ETH, startTime, periodLength: 3600n }),
              ],
            };
          },
          signatureWorkers: 0,
          onError: () => {},
        });
        run.svc = svc;
        const assetIds = svc.catalog.markets.map((m) => m.assetId);
        if ((start.bots ?? options.bots ?? 1) > 0) {
          const wallet = new Wallet(BOT_KEY);
          if (start.fresh || (await botBalance(svc.httpUrl, wallet.address)) === 0n)
            await svc.credit(wallet.address, 1_000_000_000_000n);
          run.bot = startLiquidityBot({
            name: 'practice-bot',
            venue: createClientVenue({
              account: { address: wallet.address as Address, privateKey: BOT_KEY, label: 'bot' },
              endpoints: { httpUrl: svc.httpUrl, marketWsUrl: svc.marketWsUrl, oracleWsUrl: svc.oracleWsUrl },
              chainId: PRACTICE_CHAIN_ID,
              contracts: {
                exchange: PRACTICE_VERIFYING_CONTRACT,
                ledger: LEDGER,
                depositLedger: NONE,
                settlementToken: NONE,
                permit2: NONE,
              },
              domainName: PRACTICE_DOMAIN_NAME,
            }),
            assetIds,
            config: botProfile(0),
            seed: 7,
            stepMs: 300,
            log: () => {},
          });
        }
        send({
          type: 'ready',
          httpUrl: svc.httpUrl,
          marketWsUrl: svc.marketWsUrl,
          oracleWsUrl: svc.oracleWsUrl,
          chainId: svc.chainId.toString(),
          domain: {
            name: svc.domain.name,
            version: svc.domain.version,
            verifyingContract: svc.domain.verifyingContract,
          },
          markets: svc.catalog.markets.map((m) => ({ assetId: m.assetId.toString(), symbol: m.symbol })),
          startupMs: Date.now() - began,
        });
      } catch (error) {
        send({ type: 'fatal', message: error instanceof Error ? error.message.slice(0, 400) : 'failed' });
      }
    })();
    port.on('request', (raw: unknown) => {
      const parsed = practiceRequestSchema.safeParse(raw);
      if (!parsed.success) return;
      void handle(parsed.data);
    });
    const handle = async (request: PracticeRequest): Promise<void> => {
      try {
        if (request.type === 'stats') {
          send({ type: 'reply', id: request.id, ok: false, message: 'The double keeps no statistics.' });
          return;
        }
        if (request.type === 'credit') await run.svc!.credit(request.account, BigInt(request.amount));
        else await stopRun(run);
        send({ type: 'reply', id: request.id, ok: true });
      } catch (error) {
        send({ type: 'reply', id: request.id, ok: false, message: error instanceof Error ? error.message : 'failed' });
      }
    };
    return {
      postMessage: (value) => void port.emit('request', structuredClone(value)),
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one listener type for the three events
      on: (event: string, listener: (...args: any[]) => void) => port.on(event, listener),
      terminate: async () => {
        await stopRun(run);
        port.emit('exit', 1);
        return 1;
      },
    };
  };

  return {
    spawn,
    spawned,
    exchange: () => current?.svc ?? null,
    crash: async () => {
      if (!current) return;
      await stopRun(current);
      current.port.emit('exit', 1);
    },
    stopAll: async () => {
      if (current) await stopRun(current);
    },
  };
}

async function botBalance(httpUrl: string, account: string): Promise<bigint> {
  const res = await fetch(new URL(`balance/${account}`, httpUrl.endsWith('/') ? httpUrl : `${httpUrl}/`));
  if (!res.ok) return 0n;
  const body = (await res.json()) as { balance?: string };
  return BigInt(body.balance ?? '0');
}
