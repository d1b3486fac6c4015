/**
 * The UI benches' devnet, in a process of its own as `npm start` runs it (scripts/start.mjs): the
 * core under measurement then shares its event loop, heap and CPU share with nothing the app's main
 * process would not have. Started by bench/devnet-process.ts over an IPC channel: one BTC market with
 * hour-long epochs (no roll-over mid-run) and, beside it as in the default devnet, BTC and ETH 5-minute
 * markets; it answers `credit` requests, turns the liquidity bots on and off on `bots` (three, on
 * every market, as `npm start` runs them: the live market the trader sees) and stops on `stop`.
 */
import { startDevnet } from '../src/devnet/devnet';
import { defineMarket, DEVNET_SYMBOLS } from '../src/exchange/markets';
import { startBots, type DevnetBots } from '../src/exchange/bots';
import { VOLATILITY_DEFAULTS } from '../src/client';
import type { ChildMessage, ParentMessage } from './devnet-process';

const DEMO_COUNT = 4;
const BOT_COUNT = 3;
const dataDir = process.argv[2];
if (dataDir === undefined || process.send === undefined)
  throw new Error('usage: forked by bench/devnet-process.ts with a data directory');
const send = (m: ChildMessage): void => void process.send!(m);

const devnet = await startDevnet({
  dataDir,
  fresh: true,
  ports: { http: 0, rpc: 0 },
  // The bots' accounts are the last BOT_COUNT demo accounts, kept from the core (see `ready`): they
  // start and stop on request, where the devnet's own bots would run from start to end.
  bots: 0,
  demoAccounts: DEMO_COUNT + BOT_COUNT,
  blockTimeMs: 500,
  markets: (genesis) => ({
    symbols: [DEVNET_SYMBOLS.BTC, DEVNET_SYMBOLS.ETH],
    markets: [
      // First: the market the benches trade (an hour long, so no roll-over mid-run).
      defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: genesis - (genesis % 3600n), periodLength: 3600n }),
      defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: genesis - (genesis % 300n), periodLength: 300n }),
      defineMarket({ symbol: DEVNET_SYMBOLS.ETH, startTime: genesis - (genesis % 300n), periodLength: 300n }),
    ],
  }),
});
const demo = devnet.accounts.slice(0, DEMO_COUNT);
const botAccounts = devnet.accounts.slice(DEMO_COUNT).map((a, i) => ({ ...a, label: `bot${i + 1}` }));
let bots: DevnetBots | null = null;
/** Each market's oracle volatility, as the devnet prices its own bots (devnet.ts botVolatility). */
const volatilityOf = (assetId: bigint): number | undefined => {
  const market = devnet.markets.markets.find((m) => m.assetId === assetId);
  const symbol = market && devnet.markets.symbols.find((s) => s.symbolId === market.symbolId);
  return symbol ? Math.max(symbol.volatility, VOLATILITY_DEFAULTS.floor) : undefined;
};
async function setBots(on: boolean): Promise<void> {
  if (!on) {
    await bots?.stop();
    bots = null;
    return;
  }
  bots ??= await startBots({
    accounts: botAccounts,
    endpoints: { httpUrl: devnet.httpUrl, marketWsUrl: devnet.marketWsUrl, oracleWsUrl: devnet.oracleWsUrl },
    chain: {
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      contracts: devnet.contracts,
      domainName: devnet.domainName,
      confirmations: 1,
    },
    markets: devnet.markets.markets.map((m) => m.assetId),
    volatilityOf,
    seed: 20_260_601,
    stepMs: 1000,
    log: () => {},
  });
}

process.on('message', (m: ParentMessage) => {
  if (m.type === 'credit') {
    devnet.exchange.credit(m.address, BigInt(m.amount)).then(
      () => send({ type: 'credited', id: m.id, error: null }),
      (e: unknown) => send({ type: 'credited', id: m.id, error: e instanceof Error ? e.message : 'credit failed' }),
    );
  } else if (m.type === 'bots') {
    setBots(m.on).then(
      () => send({ type: 'bots', id: m.id, error: null }),
      (e: unknown) => send({ type: 'bots', id: m.id, error: e instanceof Error ? e.message : 'bots failed' }),
    );
  } else if (m.type === 'stop') {
    void setBots(false).finally(() => void devnet.stop().finally(() => process.exit(0)));
  }
});
// The bench went away without saying stop: go too.
process.on('disconnect', () => void setBots(false).finally(() => void devnet.stop().finally(() => process.exit(0))));

send({
  type: 'ready',
  endpoint: {
    httpUrl: devnet.httpUrl,
    marketWsUrl: devnet.marketWsUrl,
    oracleWsUrl: devnet.oracleWsUrl,
    rpcUrl: devnet.rpcUrl,
    chainId: devnet.chainId.toString(),
    domainName: devnet.domainName,
    contracts: devnet.contracts,
    markets: devnet.markets.markets.map((m) => ({ assetId: m.assetId.toString(), symbol: m.symbol })),
    accounts: demo.map((a) => ({ label: a.label, address: a.address, privateKey: a.privateKey })),
  },
});
