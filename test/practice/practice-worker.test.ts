/**
 * The practice exchange's worker, started as main starts it (a worker thread with a PracticeStart),
 * with no devnet and nothing beyond loopback: it reaches `ready`, its bots quote both sides of every
 * market, an order signed with a fresh key under the practice domain is filled by a bot, play money is
 * credited, a withdrawal is PAID at once, the position survives a restart on the same journal, and
 * malformed messages are refused without a crash. A second file-level group proves a practice
 * signature is worth nothing under the devnet's domain and the other way round.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, keySigner, type DeploymentContext } from '../../src/client';
import { DEVNET_DEFAULTS, DEVNET_MNEMONIC, deriveDevnetKeys, predictDevnetContracts } from '../../src/devnet/chain';
import { startExchangeService, type ExchangeServiceHandle } from '../../src/exchange/service';
import { practiceBotAccounts } from '../../src/practice/practice-accounts';
import { practiceCatalog } from '../../src/practice/practice-catalog';
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_GRANT,
  PRACTICE_LEDGER,
  PRACTICE_VERIFYING_CONTRACT,
} from '../../src/shared/practice';
import {
  bytesToHex,
  DigestSigner,
  hashAction,
  makeExchangeDomain,
  type Address,
  type ExchangeDomain,
  type Hex,
  unpackAssetId,
} from '../../src/shared/protocol';
import { startPracticeWorker, type PracticeWorkerRun } from './practice-worker-kit';

const PRACTICE_DOMAIN = makeExchangeDomain({
  chainId: PRACTICE_CHAIN_ID,
  verifyingContract: PRACTICE_VERIFYING_CONTRACT,
  name: PRACTICE_DOMAIN_NAME,
});
const DEVNET_CONTRACTS = predictDevnetContracts(deriveDevnetKeys(DEVNET_MNEMONIC, 0).operator.address);
const DEVNET_DOMAIN = makeExchangeDomain({
  chainId: DEVNET_DEFAULTS.chainId,
  verifyingContract: DEVNET_CONTRACTS.exchange,
  name: DEVNET_DEFAULTS.domainName,
});
const IOC = 2n;
/** Ten lots (a lot is 10,000 size units). */
const SIZE = 100_000n;

/** Polls `probe` until it returns a value (not undefined); fails with `what` after `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function trader(httpUrl: string, domain: Readonly<ExchangeDomain>, ledger: Address, key?: Hex): ExchangeClient {
  const deployment: DeploymentContext = { domain, ledger };
  return new ExchangeClient({
    baseUrl: httpUrl,
    signer: keySigner(key ?? bytesToHex(randomBytes(32))),
    deployment: () => deployment,
    doctor: false,
  });
}

describe('the practice worker', () => {
  let dataDir: string;
  let run: PracticeWorkerRun;
  const strays: unknown[] = [];
  let httpUrl: string;
  let assetIds: bigint[];
  const traderKey = bytesToHex(randomBytes(32));
  const address = new DigestSigner(traderKey).address;
  let me: ExchangeClient;
  /** The market the order went to, and the position it left. */
  let traded: { assetId: bigint; epoch: bigint; size: bigint } | undefined;
  let balanceAfterTrade: bigint;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'practice-worker-'));
    run = startPracticeWorker({ dataDir, fresh: true, bots: 3 }, 'source', strays);
    const ready = await run.ready;
    httpUrl = ready.httpUrl;
    assetIds = ready.markets.map((m) => BigInt(m.assetId));
    me = trader(httpUrl, PRACTICE_DOMAIN, PRACTICE_LEDGER, traderKey);
  });
  afterAll(async () => {
    await run?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reaches ready on loopback under the practice domain, with 1m/5m/1h markets on three symbols', async () => {
    const ready = await run.ready;
    expect(new URL(ready.httpUrl).hostname).toBe('127.0.0.1');
    expect(new URL(ready.marketWsUrl).hostname).toBe('127.0.0.1');
    expect(ready.chainId).toBe(PRACTICE_CHAIN_ID.toString());
    expect(ready.domain).toEqual({
      name: PRACTICE_DOMAIN_NAME,
      version: '2',
      verifyingContract: PRACTICE_VERIFYING_CONTRACT,
    });
    expect(ready.ledger).toBe(PRACTICE_LEDGER);
    const stages = run.events.filter((e) => e.type === 'progress').map((e) => e.stage);
    expect(stages).toEqual(expect.arrayContaining(['exchange', 'funding', 'bots', 'ready']));
    // The same catalog the worker built from its journal's genesis: 3 symbols × 3 periods.
    const asset = await me.getAsset(assetIds[0]!);
    expect(asset.ledger.toLowerCase()).toBe(PRACTICE_LEDGER.toLowerCase());
    const periods = new Set<bigint>();
    const symbols = new Set<bigint>();
    for (const m of practiceCatalog(0n).markets) {
      periods.add(m.periodLength);
      symbols.add(m.symbolId);
    }
    expect([...periods]).toEqual([60n, 300n, 3600n]);
    expect(symbols.size).toBe(3);
    expect(assetIds).toHaveLength(9);
    // Each market named by the worker for its oracle symbol (the asset id's base id), as its catalog names it.
    const tickers = new Map(practiceCatalog(0n).symbols.map((s) => [s.symbolId, s.symbol]));
    expect(ready.markets.map((m) => m.symbol)).toEqual(
      ready.markets.map((m) => tickers.get(unpackAssetId(BigInt(m.assetId)).id)),
    );
    expect(new Set(ready.markets.map((m) => m.symbol))).toEqual(new Set(['BTC', 'ETH', 'SOL']));
  });

  it('has both sides of every market quoted by its bots', async () => {
    const bots = new Set(practiceBotAccounts(3).map((a) => a.address.toLowerCase()));
    for (const assetId of assetIds) {
      const book = await until(`both sides of ${assetId}`, async () => {
        const epoch = BigInt((await me.getAsset(assetId)).epoch);
        const b = await me.getOrderBook(assetId, epoch, { depth: 4 });
        return b.bids.length > 0 && b.asks.length > 0 ? b : undefined;
      });
      const makers = [...book.bids, ...book.asks].flatMap((level) =>
        (level.orders ?? []).map((o) => String(o.account).toLowerCase()),
      );
      expect(makers.length).toBeGreaterThan(0);
      for (const maker of makers) expect(bots.has(maker), maker).toBe(true);
    }
  });

  it('credits play money on request', async () => {
    const reply = await run.request({ type: 'credit', id: 1, account: address, amount: PRACTICE_GRANT.toString() });
    expect(reply).toEqual({ type: 'reply', id: 1, ok: true });
    const balance = await me.getBalance(address);
    expect(BigInt(balance.balance)).toBe(PRACTICE_GRANT);
  });

  it('fills an order signed with a fresh key under the practice domain against a bot', async () => {
    // The 5-minute BTC market, or the hourly one if the 5-minute epoch is about to roll.
    const market = await until('a market with time left and an ask', async () => {
      for (const assetId of [assetIds[1]!, assetIds[2]!]) {
        const asset = await me.getAsset(assetId);
        if (Number(asset.expiration) * 1000 - Date.now() < 20_000) continue;
        const book = await me.getOrderBook(assetId, BigInt(asset.epoch), { depth: 1 });
        const ask = book.asks[0];
        if (ask) return { assetId, epoch: BigInt(asset.epoch), ask: BigInt(ask.price) };
      }
      return undefined;
    });
    const out = await me.placeOrder({
      assetId: market.assetId,
      epoch: market.epoch,
      side: false, // buy Up
      price: market.ask,
      size: SIZE,
      timeInForce: IOC,
    });
    if (out.delivery === 'duplicate') throw new Error('a fresh key cannot send a duplicate');
    expect(BigInt(out.response.filled)).toBeGreaterThan(0n);
    const position = await me.getPosition(address, market.assetId, market.epoch);
    expect(position.size).toBe(BigInt(out.response.filled));
    traded = { assetId: market.assetId, epoch: market.epoch, size: position.size };
    balanceAfterTrade = BigInt((await me.getBalance(address)).balance);
    expect(balanceAfterTrade).toBeLessThan(PRACTICE_GRANT);
  });

  it('pays a withdrawal back at once (PAID, no chain)', async () => {
    const amount = 1_000_000n;
    const w = await me.withdraw({ amount });
    const res = await me.http.get(`withdrawals/${address}`);
    const listed = (res.body as { withdrawals: { id: string; status: string; amount: string }[] }).withdrawals;
    expect(listed.find((x) => x.id === w.id)).toMatchObject({ status: 'PAID', amount: amount.toString() });
    balanceAfterTrade -= amount;
    expect(BigInt((await me.getBalance(address)).balance)).toBe(balanceAfterTrade);
  });

  it('refuses malformed messages without a crash, and still answers after them', async () => {
    const account = address;
    for (const raw of [null, 'credit', 42, [], { type: 'stop' }, { type: 'credit', account, amount: '1' }])
      run.post(raw);
    const refused = await Promise.all([
      run.request({ type: 'credit', id: 7, account: '0xnot-an-address', amount: '1' } as never),
      run.request({ type: 'credit', id: 8, account, amount: '-5' } as never),
      run.request({ type: 'credit', id: 9, account, amount: '0' }),
      run.request({ type: 'credit', id: 10, account, amount: (10n ** 16n).toString() }),
      run.request({ type: 'explode', id: 11 } as never),
      run.request({ type: 'credit', id: 12, account, amount: '1', extra: true } as never),
    ]);
    for (const r of refused) expect(r.ok, JSON.stringify(r)).toBe(false);
    const ok = await run.request({ type: 'credit', id: 13, account, amount: '1' });
    expect(ok.ok).toBe(true);
    balanceAfterTrade += 1n;
    expect(run.events.some((e) => e.type === 'fatal')).toBe(false);
    expect(strays).toEqual([]);
  });

  it("reports its memory and work on request (the soak bench's probe)", async () => {
    const reply = await run.request({ type: 'stats', id: 20, gc: true });
    expect(reply.ok).toBe(true);
    const stats = reply.stats!;
    expect(stats.heapUsed).toBeGreaterThan(0);
    expect(stats.rss).toBeGreaterThan(stats.heapUsed);
    expect(stats.botSteps).toBeGreaterThan(0);
    // At least genesis, the epochs opened, the credits and the orders so far.
    expect(stats.journalRecords).toBeGreaterThan(assetIds.length);
  });

  it('keeps the position and the money after a restart on the same journal', async () => {
    expect(traded).toBeDefined();
    await run.stop();
    expect(await run.exited).toBe(0);
    run = startPracticeWorker({ dataDir, fresh: false }, 'source', strays);
    const ready = await run.ready;
    const again = trader(ready.httpUrl, PRACTICE_DOMAIN, PRACTICE_LEDGER, traderKey);
    const position = await again.getPosition(address, traded!.assetId, traded!.epoch);
    expect(position.size).toBe(traded!.size);
    expect(BigInt((await again.getBalance(address)).balance)).toBe(balanceAfterTrade);
  });

  it('starts over with fresh: the journal is gone', async () => {
    await run.stop();
    run = startPracticeWorker({ dataDir, fresh: true, bots: 0 }, 'source', strays);
    const ready = await run.ready;
    const again = trader(ready.httpUrl, PRACTICE_DOMAIN, PRACTICE_LEDGER, traderKey);
    expect(BigInt((await again.getBalance(address)).balance)).toBe(0n);
  });
});

describe('a practice signature is worth nothing elsewhere', () => {
  let dataDir: string;
  let practice: ExchangeServiceHandle;
  let devnet: ExchangeServiceHandle;
  const epoch = 0n;
  let assetId: bigint;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'practice-domains-'));
    const common = {
      markets: practiceCatalog,
      schedulerIntervalMs: 0,
      pingIntervalMs: 0,
      signatureWorkers: 0,
      onError: () => undefined,
    };
    practice = await startExchangeService({
      ...common,
      dataDir: join(dataDir, 'practice'),
      chainId: PRACTICE_CHAIN_ID,
      verifyingContract: PRACTICE_VERIFYING_CONTRACT,
      domainName: PRACTICE_DOMAIN_NAME,
      ledger: PRACTICE_LEDGER,
    });
    devnet = await startExchangeService({
      ...common,
      dataDir: join(dataDir, 'devnet'),
      chainId: DEVNET_DEFAULTS.chainId,
      verifyingContract: DEVNET_CONTRACTS.exchange,
      domainName: DEVNET_DEFAULTS.domainName,
      ledger: DEVNET_CONTRACTS.ledger,
    });
    assetId = practice.catalog.markets[0]!.assetId;
  });
  afterAll(async () => {
    await practice?.stop();
    await devnet?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** An order signed under `from`, sent to `to` as signed, then re-labelled for it, then re-hashed for it. */
  async function crossOver(
    from: { domain: Readonly<ExchangeDomain>; ledger: Address },
    to: { svc: ExchangeServiceHandle; domain: Readonly<ExchangeDomain> },
  ): Promise<string[]> {
    const client = trader('http://127.0.0.1:9', from.domain, from.ledger);
    const signed = await client.buildSignedOrder({ assetId, epoch, side: false, price: 500_000n, size: SIZE });
    const post = async (body: Record<string, unknown>): Promise<string> => {
      const res = await fetch(`${to.svc.httpUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(401);
      return ((await res.json()) as { error: string }).error;
    };
    const relabelled = { ...signed.body, chainId: to.domain.chainId.toString() };
    const rehashed = { ...relabelled, orderHash: hashAction('FillOrder', signed.request.order, to.domain) };
    return [await post(signed.body), await post(relabelled), await post(rehashed)];
  }

  it('a practice order sent to the devnet: wrong chain, then hash mismatch, then a signature that does not recover', async () => {
    const codes = await crossOver(
      { domain: PRACTICE_DOMAIN, ledger: PRACTICE_LEDGER },
      { svc: devnet, domain: DEVNET_DOMAIN },
    );
    expect(codes).toEqual(['WRONG_CHAIN_ID', 'ORDER_HASH_MISMATCH', 'INVALID_SIGNATURE']);
  });

  it('a devnet order sent to the practice exchange: refused the same three ways', async () => {
    const codes = await crossOver(
      { domain: DEVNET_DOMAIN, ledger: DEVNET_CONTRACTS.ledger },
      { svc: practice, domain: PRACTICE_DOMAIN },
    );
    expect(codes).toEqual(['WRONG_CHAIN_ID', 'ORDER_HASH_MISMATCH', 'INVALID_SIGNATURE']);
  });

  it('the practice domain differs from the devnet one in every field but the version', () => {
    expect(PRACTICE_DOMAIN.name).not.toBe(DEVNET_DOMAIN.name);
    expect(PRACTICE_DOMAIN.chainId).not.toBe(DEVNET_DOMAIN.chainId);
    expect(PRACTICE_DOMAIN.verifyingContract.toLowerCase()).not.toBe(DEVNET_DOMAIN.verifyingContract.toLowerCase());
  });
});
