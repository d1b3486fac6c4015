/**
 * The client library headless: one devnet demo account reads a book, follows the market feed, and
 * places, finds and cancels a resting order, one printed line per step. Only src/client (its index)
 * and src/shared/protocol; ethers only for the wallet the on-chain deposit signs with.
 *
 *   npm run devnet                                      # writes <dataDir>/devnet.json
 *   npx tsx scripts/examples/headless-trader.ts <path to devnet.json>
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Wallet } from 'ethers';
import { z } from 'zod';
import { ExchangeClient, MarketFeed, createDepositClient, keySigner, type MarketUpdate } from '../../src/client';
import {
  formatAmount,
  formatPrice,
  formatSize,
  makeExchangeDomain,
  type Address,
  type Hex,
} from '../../src/shared/protocol';

// The few devnet.json facts this script uses (shape: src/devnet/devnet-file.ts), checked at the edge.
const hex = z.string().regex(/^0x[0-9a-fA-F]+$/);
const devnetFileSchema = z.object({
  httpUrl: z.string().url(),
  marketWsUrl: z.string().url(),
  rpcUrl: z.string().url(),
  chainId: z.string().regex(/^\d+$/),
  domain: z.object({ name: z.string(), version: z.string(), verifyingContract: hex }),
  contracts: z.object({ ledger: hex, depositLedger: hex }),
  markets: z.array(z.object({ assetId: z.string(), symbol: z.string(), periodLength: z.string() })).min(1),
  accounts: z.array(z.object({ label: z.string(), address: hex, privateKey: hex, role: z.enum(['demo', 'bot']) })),
});

/** What happened, for callers (the test) that check more than the printed lines. */
export interface HeadlessRun {
  orderId: Hex;
  seenResting: boolean;
  cancelStatus: string;
  stillResting: boolean;
  feedUpdates: MarketUpdate[];
}

/** A buy far below any sensible bid (1¢ for 1 contract): it rests and never trades. */
const PRICE = '1';
const SIZE = '1';
const DEPOSIT = '10';
/** How long the script waits for the feed to show its own order or cancel before moving on. */
const FEED_WAIT_MS = 10_000;

export async function runHeadlessTrader(devnetPath: string, log: (line: string) => void): Promise<HeadlessRun> {
  const file = devnetFileSchema.parse(JSON.parse(await readFile(devnetPath, 'utf8')));
  const demo = file.accounts.find((a) => a.role === 'demo');
  if (!demo) throw new Error(`${devnetPath} lists no demo account.`);
  const account = demo.address as Address;

  // 1. Domain and client: every signature is made in this process with the demo key.
  const domain = makeExchangeDomain({
    chainId: BigInt(file.chainId),
    verifyingContract: file.domain.verifyingContract as Address,
    name: file.domain.name,
    version: file.domain.version,
  });
  const client = new ExchangeClient({
    baseUrl: file.httpUrl,
    signer: keySigner(demo.privateKey as Hex),
    deployment: () => ({ domain, ledger: file.contracts.ledger as Address }),
  });
  log(`client   ${demo.label} ${account} on ${file.httpUrl}`);

  // 2. Margin: a resting buy needs a free balance; a fresh demo account has tokens on chain only.
  if ((await client.getBalance(account)).balance === 0n) {
    const deposits = createDepositClient({
      rpcUrl: file.rpcUrl,
      expectedChainId: BigInt(file.chainId),
      depositLedger: file.contracts.depositLedger as Address,
      wallet: new Wallet(demo.privateKey),
      pollIntervalMs: 200,
    });
    try {
      const { amount } = await deposits.deposit(DEPOSIT, { mode: 'approve' });
      await until(async () => (await client.getBalance(account)).balance >= amount, 60_000);
    } finally {
      deposits.close();
    }
  }
  log(`balance  ${formatAmount((await client.getBalance(account)).balance)} dUSD free`);

  // 3. The book: the longest-period market, so its epoch is unlikely to roll over mid-run.
  const market = file.markets.reduce((a, b) => (BigInt(b.periodLength) > BigInt(a.periodLength) ? b : a));
  const assetId = BigInt(market.assetId);
  const { epoch } = await client.getAsset(assetId);
  const book = await client.getOrderBook(assetId, epoch, { depth: 5 });
  const touch = (l: { price: bigint } | undefined): string => (l ? `${formatPrice(l.price)}¢` : '—');
  log(`book     ${market.symbol} epoch ${epoch}: bid ${touch(book.bids[0])} / ask ${touch(book.asks[0])}`);

  // 4. The market feed: every update for this asset, the first few printed.
  const feed = new MarketFeed({ url: file.marketWsUrl });
  const feedUpdates: MarketUpdate[] = [];
  const sub = feed.subscribe(assetId, {
    onUpdate: (u) => {
      feedUpdates.push(u);
      if (feedUpdates.length <= 5) log(`feed     #${u.seqId} ${describe(u)}`);
    },
  });
  try {
    await sub.ready;
    log(`feed     subscribed to ${file.marketWsUrl}`);

    // 5. A resting order well away from the touch.
    const placed = await client.placeOrder({
      assetId,
      epoch,
      side: 'buy',
      price: PRICE,
      size: SIZE,
      timeInForce: 'GTC',
    });
    const status = placed.delivery === 'answered' ? placed.response.status : 'DUPLICATE';
    const orderId = placed.orderHash;
    log(`order    buy ${SIZE} @ ${PRICE}¢: ${status} ${orderId}`);
    if (status !== 'ACCEPTED') throw new Error(`The order was not accepted (${status}).`);

    // 6. Among the account's resting orders.
    const mine = async (): Promise<boolean> =>
      (await client.getBookOrders(assetId, epoch, account)).buys.some((o) => o.id === orderId);
    const seenResting = await mine();
    log(`resting  ${seenResting ? 'listed' : 'NOT listed'} among ${account}'s orders`);
    await until(() => feedUpdates.some((u) => u.type === 'order' && u.data.orderId === orderId), FEED_WAIT_MS);

    // 7. Cancel it.
    const cancelled = await client.cancelOrder({ assetId, epoch, orderHash: orderId });
    const cancelStatus = cancelled.delivery === 'answered' ? cancelled.response.status : 'DUPLICATE';
    const stillResting = await mine();
    log(`cancel   ${cancelStatus}; ${stillResting ? 'still resting' : 'gone from the book'}`);
    // A cancel event's orderId is the cancel request; cancelId is the order it removed.
    await until(() => feedUpdates.some((u) => u.type === 'cancel' && u.data.cancelId === orderId), FEED_WAIT_MS);

    await sub.unsubscribe();
    return { orderId, seenResting, cancelStatus, stillResting, feedUpdates };
  } finally {
    // 8. Close the feed (also on failure, so the process can exit).
    feed.close();
    log(`closed   feed after ${feedUpdates.length} update(s)`);
  }
}

/** One feed update in a few words (a cancel names the order it removed, not the cancel request). */
function describe(u: MarketUpdate): string {
  const id = (h: Hex): string => `${h.slice(0, 10)}…`;
  switch (u.type) {
    case 'order':
      return `order ${id(u.data.orderId)} ${u.data.side ? 'sell' : 'buy'} ${formatSize(u.data.size)} @ ${formatPrice(u.data.price)}¢`;
    case 'trade':
      return `trade ${id(u.data.orderId)} ${formatSize(u.data.fill)} @ ${formatPrice(u.data.fillPrice)}¢`;
    case 'cancel':
      return `cancel of ${id(u.data.cancelId)}`;
    case 'resolution':
      return `resolution at ${formatPrice(u.data.price)}¢`;
  }
}

/** Polls `done` every 100 ms; gives up quietly after `ms` (the lines printed say what was seen). */
async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

// Run as a script: `npx tsx scripts/examples/headless-trader.ts <devnet.json>`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = process.argv[2];
  if (!path) {
    console.error('usage: npx tsx scripts/examples/headless-trader.ts <path to devnet.json>');
    process.exit(2);
  }
  runHeadlessTrader(path, (line) => console.log(line)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
