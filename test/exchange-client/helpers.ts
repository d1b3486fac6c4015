// Shared set-up for the exchange-client integration tests: a local exchange service on loopback with
// a hand-driven clock, funded wallets, and clients built only from the library's public API.
import {
  startExchangeService,
  type ExchangeServiceHandle,
  type ExchangeServiceOptions,
} from '../../src/exchange/service';
import { ExchangeClient, type ActionSigner, type ExchangeClientOptions } from '../../src/client';
import { ExchangeClock } from '../../src/client';
import { DigestSigner, type Address, type Hex } from '../../src/shared/protocol';

export const KEYS = {
  master: '0x96a9aaae992dc91b323af861602808fdd879520e161af6043833b6cb4537f212',
  agent: '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  taker: '0x1111111111111111111111111111111111111111111111111111111111111111',
  other: '0x2222222222222222222222222222222222222222222222222222222222222222',
  poor: '0x3333333333333333333333333333333333333333333333333333333333333333',
} as const satisfies Record<string, Hex>;

export const EXCHANGE: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
export const LEDGER: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';

/** A signer over a DigestSigner, counting signatures (to prove nothing was signed). */
export function testSigner(key: Hex): ActionSigner & { signed: number; key: DigestSigner } {
  const d = new DigestSigner(key);
  const s = {
    address: d.address,
    signed: 0,
    key: d,
    signDigest(digest: Hex): Promise<Hex> {
      s.signed++;
      return Promise.resolve(d.sign(digest));
    },
  };
  return s;
}

export interface Devnet {
  svc: ExchangeServiceHandle;
  /** Hand-driven exchange clock (ms). */
  time: { now: number };
  client(key: Hex | null, extra?: Partial<ExchangeClientOptions>): ExchangeClient & { clock: ExchangeClock };
  /** The BTC 1-minute market. */
  assetId: bigint;
  advance(ms: number): Promise<void>;
}

export async function startDevnet(extra: Partial<ExchangeServiceOptions> = {}): Promise<Devnet> {
  // Exchange time runs well ahead of the machine's clock, so the client must learn the offset.
  const time = { now: Date.UTC(2027, 0, 1, 12, 0, 0) };
  const svc = await startExchangeService({
    verifyingContract: EXCHANGE,
    ledger: LEDGER,
    clock: () => time.now,
    schedulerIntervalMs: 0,
    pingIntervalMs: 0,
    oracle: { publishIntervalMs: 0 },
    onError: () => {},
    ...extra,
  });
  await svc.runScheduler();
  const market = svc.catalog.markets.find((m) => m.periodLength === 60n)!;
  return {
    svc,
    time,
    assetId: market.assetId,
    client(key, extra = {}) {
      const clock = new ExchangeClock();
      const { onResponse: watch, ...rest } = extra;
      const c = new ExchangeClient({
        baseUrl: svc.httpUrl,
        // The clock always learns; a test's own watcher sees every response too.
        onResponse: watch
          ? (r) => {
              clock.onResponse(r);
              watch(r);
            }
          : clock.onResponse,
        now: clock.now,
        deployment: () => ({ domain: svc.domain, ledger: LEDGER }),
        ...(key ? { signer: testSigner(key) } : {}),
        ...rest,
      }) as ExchangeClient & { clock: ExchangeClock };
      c.clock = clock;
      return c;
    },
    async advance(ms) {
      time.now += ms;
      await svc.runScheduler();
    },
  };
}
