// A service on a temp data dir with an injected clock, two 60-second markets and role accounts:
// shared by this folder's tests (and usable by fuzz/chaos tests).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address, DigestSigner } from '../../../src/shared/protocol';
import { defineMarket, DEVNET_SYMBOLS, type MarketSpec } from '../../../src/exchange/markets';
import {
  startExchangeService,
  type ExchangeServiceHandle,
  type ExchangeServiceOptions,
} from '../../../src/exchange/service/service';
import { jsonClient, testSigner } from './testkit';

export const EXCHANGE = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address;
export const LEDGER = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512' as Address;
/** 2026-09-22T…Z: after the reference client's approvalNonce floor. */
export const T0_SEC = 1_790_000_040n;
export const START_SEC = 1_790_000_000n;

export interface Fixture {
  svc: ExchangeServiceHandle;
  http: ReturnType<typeof jsonClient>;
  dataDir: string;
  clock: { now: number };
  /** Oracle-strike BTC market and fixed-strike ETH market, 60-second epochs from START_SEC. */
  btc: MarketSpec;
  eth: MarketSpec;
  keys: {
    alice: DigestSigner;
    bob: DigestSigner;
    carol: DigestSigner;
    agent: DigestSigner;
    agent2: DigestSigner;
    resolverSigner: DigestSigner;
    adminSigner: DigestSigner;
  };
  resolverAccount: Address;
  adminAccount: Address;
  options: ExchangeServiceOptions;
  restart(extra?: Partial<ExchangeServiceOptions>): Promise<void>;
  close(): Promise<void>;
}

export async function startFixture(extra: Partial<ExchangeServiceOptions> = {}): Promise<Fixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'exchange-test-'));
  const clock = { now: Number(T0_SEC) * 1000 };
  const btc = defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: START_SEC, periodLength: 60n });
  const eth = defineMarket({
    symbol: DEVNET_SYMBOLS.ETH,
    startTime: START_SEC,
    periodLength: 60n,
    strike: 3_200_000_000n,
  });
  const keys = {
    alice: testSigner('alice'),
    bob: testSigner('bob'),
    carol: testSigner('carol'),
    agent: testSigner('agent'),
    agent2: testSigner('agent2'),
    resolverSigner: testSigner('resolver-signer'),
    adminSigner: testSigner('admin-signer'),
  };
  const resolverAccount = testSigner('resolver-account').address;
  const adminAccount = testSigner('admin-account').address;
  const options: ExchangeServiceOptions = {
    dataDir,
    chainId: 31337n,
    verifyingContract: EXCHANGE,
    ledger: LEDGER,
    markets: { symbols: [DEVNET_SYMBOLS.BTC, DEVNET_SYMBOLS.ETH], markets: [btc, eth] },
    clock: () => clock.now,
    schedulerIntervalMs: 0,
    pingIntervalMs: 0,
    oracle: { publishIntervalMs: 0 },
    resolvers: [{ account: resolverAccount, signers: [keys.resolverSigner.address] }],
    admins: [{ account: adminAccount, signers: [keys.adminSigner.address] }],
    onError: () => undefined,
    ...extra,
  };
  const fx: Fixture = {
    svc: await startExchangeService({ ...options, fresh: true }),
    http: undefined as never,
    dataDir,
    clock,
    btc,
    eth,
    keys,
    resolverAccount,
    adminAccount,
    options,
    async restart(more = {}) {
      await fx.svc.stop();
      fx.svc = await startExchangeService({ ...options, ...more });
      fx.http = jsonClient(fx.svc.httpUrl);
    },
    async close() {
      await fx.svc.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  fx.http = jsonClient(fx.svc.httpUrl);
  return fx;
}
