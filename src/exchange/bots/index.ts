/**
 * Devnet liquidity bots: each funds its account with a real on-chain deposit, then quotes every
 * market through the app's client library (client-venue.ts), like any outside trader would.
 */
import type { FundedAccount as DevnetAccount, ExchangeContracts as DevnetContracts } from '../deployment';
import { createClientVenue, depositAndWait } from './client-venue';
import { startLiquidityBot, type LiquidityBot } from './liquidity-bot';
import { botProfile } from './profiles';

export { buildLadder, dropCrossing, fairMoved, type LadderConfig, type Quote } from './ladder';
export { reconcileQuotes, type QuoteAction, type RestingOrder } from './reconcile';
export { startLiquidityBot, type LiquidityBot, type LiquidityBotOptions } from './liquidity-bot';
export { MarketMaker, type BotFair, type MarketMakerConfig } from './market-maker';
export { botProfile } from './profiles';
export { devnetClient, type DevnetEndpoint } from './devnet-client';
export { createClientVenue, type ClientVenueOptions } from './client-venue';
/** The account and contract shapes a venue takes (types only: no chain code comes with them). */
export type { FundedAccount as DevnetAccount, ExchangeContracts as DevnetContracts } from '../deployment';
export type { BotVenue, MarketInfo, VenueOrderOutcome, OrderRequest, VenueTopOfBook } from './venue';

/** Tokens each bot deposits at start (human decimal, 6-decimal token). */
export const BOT_DEPOSIT = '10000';

export interface StartBotsOptions {
  accounts: DevnetAccount[];
  endpoints: { httpUrl: string; marketWsUrl: string; oracleWsUrl: string };
  chain: { rpcUrl: string; chainId: bigint; contracts: DevnetContracts; domainName: string; confirmations: number };
  markets: bigint[];
  /** Each market's oracle volatility (the catalog's), which the bots price with; unknown ones use the profile's. */
  volatilityOf?: (assetId: bigint) => number | undefined;
  seed: number;
  stepMs: number;
  log: (line: string) => void;
  onFunding?: (message: string) => void;
  onStarted?: (message: string) => void;
}

export interface DevnetBots {
  readonly list: readonly LiquidityBot[];
  stop(): Promise<void>;
}

export async function startBots(opts: StartBotsOptions): Promise<DevnetBots> {
  if (opts.accounts.length === 0) return { list: [], stop: async () => {} };
  opts.onFunding?.(`depositing ${BOT_DEPOSIT} dUSD on chain for ${opts.accounts.length} bot account(s)…`);
  // In parallel: different wallets, so no nonce contention; the chain mines them together.
  await Promise.all(
    opts.accounts.map((account) =>
      depositAndWait({ account, amount: BOT_DEPOSIT, ...opts.chain, httpUrl: opts.endpoints.httpUrl }),
    ),
  );
  opts.onFunding?.(`bot deposits credited on the exchange`);

  const list = opts.accounts.map((account, i) =>
    startLiquidityBot({
      name: account.label,
      venue: createClientVenue({
        account,
        endpoints: opts.endpoints,
        chainId: opts.chain.chainId,
        contracts: opts.chain.contracts,
        domainName: opts.chain.domainName,
      }),
      assetIds: opts.markets,
      config: botProfile(i),
      ...(opts.volatilityOf ? { sigmaOf: opts.volatilityOf } : {}),
      seed: opts.seed + i * 7919,
      stepMs: opts.stepMs,
      log: opts.log,
    }),
  );
  opts.onStarted?.(`${list.length} bot(s) quoting ${opts.markets.length} market(s)`);
  return {
    list,
    async stop() {
      await Promise.all(list.map((b) => b.stop()));
    },
  };
}
