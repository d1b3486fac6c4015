/**
 * The practice exchange's worker thread (built to out/main/practice-worker.js): main starts it by file
 * path with a PracticeStart as workerData and speaks only the messages of src/shared/practice.ts.
 * Every message in is parsed (main is trusted, but this is an edge like any other); nothing here
 * throws uncaught: a failure is a `fatal` event with a sentence, or a `reply` with ok: false.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import {
  practiceRequestSchema,
  practiceStartSchema,
  type PracticeEvent,
  type PracticeRequest,
  type PracticeStats,
} from '../shared/practice';
import { startPracticeExchange, type PracticeExchange } from './practice-exchange';

const port: MessagePort = (() => {
  if (parentPort === null) throw new Error('src/practice/worker.ts runs only as a worker thread.');
  return parentPort;
})();

const started = performance.now();
const elapsedMs = (): number => Math.round(performance.now() - started);
const post = (event: PracticeEvent): void => port.postMessage(event);
const sentence = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 480);

let exchange: PracticeExchange | undefined;
let stopped = false;

/** When the WebAssembly crypto engines are loaded, after `ready`. */
const WASM_AFTER_MS = 3_000;

/** The exchange's own bound on an amount (a deposit or withdrawal of more is refused the same way). */
const MAX_CREDIT = 10n ** 15n;

/** The one way out on a failure nobody awaited: say it, stop what runs, let main decide. */
function fatal(message: string): void {
  post({ type: 'fatal', message: message.slice(0, 500) });
  stopAll()
    .catch(() => undefined)
    .finally(() => port.close());
}

process.on('uncaughtException', (e) => fatal(`The practice exchange failed: ${sentence(e)}`));
process.on('unhandledRejection', (e) => fatal(`The practice exchange failed: ${sentence(e)}`));

/** Bots cancel their quotes, the exchange stops; the journal stays. */
async function stopAll(): Promise<void> {
  if (stopped) return;
  stopped = true;
  await exchange?.stop(); // one still starting is stopped by start() when it arrives
}

async function start(): Promise<PracticeExchange | undefined> {
  const parsed = practiceStartSchema.safeParse(workerData);
  if (!parsed.success) {
    fatal('The practice exchange was started without a valid data folder.');
    return undefined;
  }
  try {
    exchange = await startPracticeExchange({
      ...parsed.data,
      onProgress: (stage) => post({ type: 'progress', stage, elapsedMs: elapsedMs() }),
    });
  } catch (e) {
    fatal(`The practice exchange could not start: ${sentence(e)}`);
    return undefined;
  }
  if (stopped) {
    await exchange.stop();
    return undefined;
  }
  // libsecp256k1 and keccak in WebAssembly, as main uses them (the bots sign and the exchange hashes
  // every order), once the first books are up: compiling them takes 0.1–0.2 s, which the first live
  // book does not wait for. Until then, and for good if the package cannot load, the same bytes come
  // from the JavaScript engines, only slower.
  setTimeout(() => {
    import('../shared/protocol/wasm-crypto').then((m) => m.useWasmCrypto()).catch(() => undefined);
  }, WASM_AFTER_MS).unref();
  post({
    type: 'ready',
    httpUrl: exchange.httpUrl,
    marketWsUrl: exchange.marketWsUrl,
    oracleWsUrl: exchange.oracleWsUrl,
    chainId: exchange.chainId.toString(),
    domain: {
      name: exchange.domain.name,
      version: exchange.domain.version,
      verifyingContract: exchange.domain.verifyingContract,
    },
    markets: exchange.catalog.markets.map((m) => ({ assetId: m.assetId.toString(), symbol: m.symbol })),
    startupMs: elapsedMs(),
    ledger: exchange.ledger,
  });
  return exchange;
}

const starting = start();

async function answer(request: PracticeRequest): Promise<void> {
  const running = await starting;
  if (request.type === 'stop') {
    let message: string | undefined;
    await stopAll().catch((e: unknown) => (message = sentence(e)));
    post({ type: 'reply', id: request.id, ok: message === undefined, ...(message === undefined ? {} : { message }) });
    port.close(); // nothing keeps this thread alive any more: it ends
    return;
  }
  if (running === undefined || stopped) {
    post({ type: 'reply', id: request.id, ok: false, message: 'The practice exchange is not running.' });
    return;
  }
  if (request.type === 'stats') {
    post({ type: 'reply', id: request.id, ok: true, stats: stats(running, request.gc === true) });
    return;
  }
  const amount = BigInt(request.amount);
  if (amount === 0n || amount > MAX_CREDIT) {
    post({ type: 'reply', id: request.id, ok: false, message: 'A credit must be from 1 to 10^15 micro-dollars.' });
    return;
  }
  try {
    await running.credit(request.account, amount);
    post({ type: 'reply', id: request.id, ok: true });
  } catch (e) {
    post({ type: 'reply', id: request.id, ok: false, message: `The credit failed: ${sentence(e)}` });
  }
}

function stats(running: PracticeExchange, gc: boolean): PracticeStats {
  // A bench's host may expose gc (node --expose-gc); Electron's main never does.
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect !== undefined) collect();
  const heap = process.memoryUsage();
  return {
    heapUsed: heap.heapUsed,
    heapTotal: heap.heapTotal,
    external: heap.external,
    rss: heap.rss,
    journalRecords: running.service.journalStats().records,
    botSteps: running.botSteps(),
    collected: gc && collect !== undefined,
  };
}

port.on('message', (raw: unknown) => {
  const parsed = practiceRequestSchema.safeParse(raw);
  if (!parsed.success) {
    // Refused, never thrown: with an id to answer to, say so; without one there is nobody to tell.
    const id = (raw as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && Number.isInteger(id))
      post({ type: 'reply', id, ok: false, message: 'The practice exchange refused a malformed request.' });
    return;
  }
  answer(parsed.data).catch((e: unknown) =>
    post({ type: 'reply', id: parsed.data.id, ok: false, message: sentence(e) }),
  );
});
