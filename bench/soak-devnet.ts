/**
 * The soak bench's devnet, in a process of its own so the bench's heap holds only the app core:
 * chain + exchange on ephemeral ports, liquidity bots, a BTC market in 30 s epochs and an ETH market
 * in 60 s epochs (epochs roll over many times in a run), and the first demo account credited.
 *
 * Started by bench/soak.bench.ts as `node --import tsx bench/soak-devnet.ts`; prints one line
 * `SOAK DEVNET {json}` when ready and stops when told (SIGTERM) or when its parent goes (stdin ends).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../src/devnet/devnet';
import { defineMarket, DEVNET_SYMBOLS } from '../src/exchange/markets';

/** What the bench needs to point a core at this devnet; bigints as decimal strings. */
export interface SoakDevnetInfo {
  httpUrl: string;
  marketWsUrl: string;
  oracleWsUrl: string;
  rpcUrl: string;
  chainId: string;
  markets: { assetId: string; symbol: string; periodSeconds: number }[];
  trader: { label: string; address: string; privateKey: string };
}

export const SOAK_DEVNET_LINE = 'SOAK DEVNET ';
/** Dollars credited to the trader (6-decimal units): a day of small orders never runs short. */
const TRADER_CREDIT = 1_000_000_000_000n;

async function main(): Promise<void> {
  const bots = Number(process.env['SOAK_BOTS'] ?? '2');
  const dir = await mkdtemp(join(tmpdir(), 'soak-devnet-'));
  const devnet = await startDevnet({
    dataDir: dir,
    fresh: true,
    ports: { http: 0, rpc: 0 },
    bots,
    demoAccounts: 1,
    blockTimeMs: 1000,
    markets: (genesis) => {
      const { BTC, ETH } = DEVNET_SYMBOLS;
      return {
        symbols: [BTC, ETH],
        markets: [
          defineMarket({ symbol: BTC, startTime: genesis - (genesis % 30n), periodLength: 30n }),
          defineMarket({ symbol: ETH, startTime: genesis - (genesis % 60n), periodLength: 60n }),
        ],
      };
    },
  });
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= devnet
      .stop()
      .then(() => rm(dir, { recursive: true, force: true }))
      .finally(() => process.exit(0)));
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();

  const trader = devnet.accounts[0]!;
  await devnet.exchange.credit(trader.address, TRADER_CREDIT);
  const info: SoakDevnetInfo = {
    httpUrl: devnet.httpUrl,
    marketWsUrl: devnet.marketWsUrl,
    oracleWsUrl: devnet.oracleWsUrl,
    rpcUrl: devnet.rpcUrl,
    chainId: devnet.chainId.toString(),
    markets: devnet.markets.markets.map((m) => ({
      assetId: m.assetId.toString(),
      symbol: m.symbol,
      periodSeconds: Number(m.periodLength),
    })),
    trader: { label: trader.label, address: trader.address, privateKey: trader.privateKey },
  };
  process.stdout.write(`${SOAK_DEVNET_LINE}${JSON.stringify(info)}\n`);
}

// Imported for its types by the bench; run only as the child's entry point.
if (process.argv[1]?.endsWith('soak-devnet.ts')) await main();
