/**
 * The UI benches' devnet, in a process of its own as `npm start` runs it (scripts/start.mjs): the
 * core under measurement then shares its event loop, heap and CPU share with nothing the app's main
 * process would not have. Started by bench/devnet-process.ts over an IPC channel: one BTC market with
 * hour-long epochs (no roll-over mid-run), no bots; it answers `credit` requests and stops on `stop`.
 */
import { startDevnet } from '../src/devnet/devnet';
import { defineMarket, DEVNET_SYMBOLS } from '../src/exchange/markets';
import type { ChildMessage, ParentMessage } from './devnet-process';

const dataDir = process.argv[2];
if (dataDir === undefined || process.send === undefined)
  throw new Error('usage: forked by bench/devnet-process.ts with a data directory');
const send = (m: ChildMessage): void => void process.send!(m);

const devnet = await startDevnet({
  dataDir,
  fresh: true,
  ports: { http: 0, rpc: 0 },
  bots: 0,
  blockTimeMs: 500,
  markets: (genesis) => ({
    symbols: [DEVNET_SYMBOLS.BTC],
    markets: [
      defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: genesis - (genesis % 3600n), periodLength: 3600n }),
    ],
  }),
});

process.on('message', (m: ParentMessage) => {
  if (m.type === 'credit') {
    devnet.exchange.credit(m.address, BigInt(m.amount)).then(
      () => send({ type: 'credited', id: m.id, error: null }),
      (e: unknown) => send({ type: 'credited', id: m.id, error: e instanceof Error ? e.message : 'credit failed' }),
    );
  } else if (m.type === 'stop') {
    void devnet.stop().finally(() => process.exit(0));
  }
});
// The bench went away without saying stop: go too.
process.on('disconnect', () => void devnet.stop().finally(() => process.exit(0)));

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
    accounts: devnet.accounts.map((a) => ({ label: a.label, address: a.address, privateKey: a.privateKey })),
  },
});
