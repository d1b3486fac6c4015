/**
 * BotVenue on the app's client library: signed intents (idempotent nonces, retries) through
 * ExchangeClient, prices, books and own orders from the feeds (feed-state.ts) with the REST reads
 * as fallback while a feed is not live, funding through the deposit client.
 * No server internals: the bot sees the devnet exactly as the desktop app does.
 */
import { Wallet } from 'ethers';
import { unpackAssetId, type Hex } from '../../shared/protocol';
import { createDepositClient } from '../../client';
import type { FundedAccount as DevnetAccount, ExchangeContracts as DevnetContracts } from '../deployment';
import { devnetClient } from './devnet-client';
import { FeedState } from './feed-state';
import type { RestingOrder } from './reconcile';
import type { BotVenue, MarketInfo, VenueOrderOutcome, OrderRequest, VenueTopOfBook } from './venue';

export interface ClientVenueOptions {
  account: DevnetAccount;
  endpoints: { httpUrl: string; marketWsUrl: string; oracleWsUrl: string };
  chainId: bigint;
  contracts: DevnetContracts;
  domainName: string;
}

const TIF = { ALO: 3n, IOC: 2n } as const;

/** Bots retry little: the next step re-reads state and reconciles anyway. */
const BOT_CLIENT = {
  timeoutMs: 10_000,
  retry: { maxAttempts: 2, baseDelayMs: 250, maxDelayMs: 1_000 },
  doctor: false,
} as const;

const big = (v: string | number | bigint): bigint => BigInt(v);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export function createClientVenue(opts: ClientVenueOptions): BotVenue {
  const client = devnetClient({ ...opts, httpUrl: opts.endpoints.httpUrl }, opts.account.privateKey, BOT_CLIENT);
  const address = opts.account.address;
  const orderInput = (o: OrderRequest) => ({
    assetId: o.assetId,
    epoch: o.epoch,
    side: o.side,
    price: o.price,
    size: o.size,
    timeInForce: TIF[o.tif],
  });
  // The epoch's facts change only at roll-over: cached until it expires, then re-read each step
  // until the exchange shows the next epoch.
  const markets = new Map<string, MarketInfo>();
  const feeds = new FeedState({
    reader: client,
    account: address,
    marketWsUrl: opts.endpoints.marketWsUrl,
    oracleWsUrl: opts.endpoints.oracleWsUrl,
    currentEpoch: (assetId) => markets.get(assetId.toString())?.epoch,
  });
  const restOrders = async (assetId: bigint, epoch: bigint): Promise<RestingOrder[]> => {
    const b = await client.getBookOrders(assetId, epoch, address);
    return [
      ...b.buys.map((o) => ({ orderId: o.id, side: false, price: big(o.price), size: big(o.size) })),
      ...b.sells.map((o) => ({ orderId: o.id, side: true, price: big(o.price), size: big(o.size) })),
    ];
  };

  return {
    address,
    async market(assetId): Promise<MarketInfo> {
      const cached = markets.get(assetId.toString());
      if (cached && Date.now() < Number(cached.expiration) * 1000) return cached;
      const a = await client.getAsset(assetId);
      const info = {
        assetId,
        symbolId: unpackAssetId(assetId).id,
        epoch: big(a.epoch),
        strike: big(a.strikePrice),
        expiration: big(a.expiration),
      };
      markets.set(assetId.toString(), info);
      feeds.track(assetId, info.symbolId);
      feeds.followEpoch(assetId, info.epoch);
      return info;
    },
    async oraclePrice(assetId) {
      const live = feeds.oraclePrice(assetId);
      if (live !== undefined) return live;
      try {
        return big((await client.getMarkPrice(assetId)).price);
      } catch {
        return undefined; // no price yet: the bot quotes nothing rather than guess
      }
    },
    async top(assetId, epoch): Promise<VenueTopOfBook> {
      const live = feeds.top(assetId, epoch);
      if (live) return live;
      const t = await client.getTopOfBook(assetId, epoch);
      return { ...(t.bid ? { bestBid: big(t.bid.price) } : {}), ...(t.ask ? { bestAsk: big(t.ask.price) } : {}) };
    },
    async restingOrders(assetId, epoch): Promise<RestingOrder[]> {
      const own = await feeds.ownOrders(assetId, epoch);
      return own
        ? own.map((o) => ({ orderId: o.id, side: o.side, price: o.price, size: o.size }))
        : restOrders(assetId, epoch);
    },
    async place(order): Promise<VenueOrderOutcome> {
      try {
        const out = await client.placeOrder(orderInput(order));
        feeds.acted(order.assetId, order.epoch, out.orderHash);
        if (out.delivery === 'duplicate')
          return { orderId: out.orderHash, status: 'DUPLICATE', filled: 0n, reason: '' };
        return {
          orderId: out.orderHash,
          status: out.response.status,
          filled: big(out.response.filled),
          reason: out.response.reason,
        };
      } catch (err) {
        feeds.acted(order.assetId, order.epoch); // the outcome is unknown: re-read before trusting the cache
        throw err;
      }
    },
    async cancelReplace(target, order) {
      try {
        const out = await client.cancelReplaceOrder({
          ...orderInput(order),
          cancelOrderHash: target as Hex,
          allOrNothing: false,
        });
        feeds.acted(order.assetId, order.epoch, out.orderHash);
        return { status: out.delivery === 'duplicate' ? 'DUPLICATE' : out.response.status };
      } catch (err) {
        feeds.acted(order.assetId, order.epoch);
        throw err;
      }
    },
    async cancel(assetId, epoch, orderId) {
      feeds.acted(assetId, epoch);
      await client.cancelOrder({ assetId, epoch, orderHash: orderId as Hex });
    },
    async cancelAll(assetId, epoch) {
      feeds.acted(assetId, epoch);
      await client.cancelAll({ assetId, epoch });
    },
    async positionSize(assetId, epoch) {
      try {
        return big((await client.getPosition(address, assetId, epoch)).size);
      } catch (err) {
        if (codeOf(err).includes('NOT_FOUND')) return 0n;
        throw err;
      }
    },
    async claim(assetId, epoch) {
      try {
        const r = await client.claim({ assetId, epoch });
        return r.status === 'CLAIMED' ? 'claimed' : 'nothing';
      } catch (err) {
        if (codeOf(err).includes('NOT_RESOLVED')) return 'not-resolved';
        throw err;
      }
    },
    watch: (assetId, wake) => feeds.watch(assetId, wake),
    close() {
      feeds.close();
      return Promise.resolve();
    },
  };
}

export interface DepositAndWaitOptions {
  account: DevnetAccount;
  amount: string;
  rpcUrl: string;
  chainId: bigint;
  contracts: DevnetContracts;
  domainName: string;
  confirmations: number;
  httpUrl: string;
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
}

/** A real on-chain deposit (approve + deposit), then waits until the exchange balance shows it. */
export async function depositAndWait(opts: DepositAndWaitOptions): Promise<void> {
  const client = devnetClient(opts, opts.account.privateKey, BOT_CLIENT);
  const before = big((await client.getBalance(opts.account.address)).balance);
  const deposits = createDepositClient({
    rpcUrl: opts.rpcUrl,
    expectedChainId: opts.chainId,
    depositLedger: opts.contracts.depositLedger,
    wallet: new Wallet(opts.account.privateKey),
    pollIntervalMs: 200,
  });
  try {
    const { amount } = await deposits.deposit(opts.amount, { mode: 'approve', confirmations: opts.confirmations });
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    while (big((await client.getBalance(opts.account.address)).balance) < before + amount) {
      if (Date.now() > deadline)
        throw new Error(`The exchange did not credit ${opts.account.label}'s deposit in time.`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    deposits.close();
  }
}
