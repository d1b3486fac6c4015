// Every client method against the local exchange service on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError, ExchangeValidationError } from '../../src/client';
import { EpochWatcher, AccountState } from '../../src/client';
import { DigestSigner } from '../../src/shared/protocol';
import { KEYS, LEDGER, startDevnet, testSigner, type Devnet } from './helpers';

let net: Devnet;
type Client = ReturnType<Devnet['client']>;
let master: Client;
let agent: Client;
let taker: Client;
let reader: Client;
const A = new DigestSigner(KEYS.master).address;
const B = new DigestSigner(KEYS.agent).address;
const T = new DigestSigner(KEYS.taker).address;

beforeAll(async () => {
  net = await startDevnet();
  for (const k of [KEYS.master, KEYS.taker, KEYS.agent])
    await net.svc.credit(new DigestSigner(k).address, 1_000_000_000n);
  master = net.client(KEYS.master);
  agent = net.client(KEYS.agent);
  taker = net.client(KEYS.taker);
  reader = net.client(null);
});

afterAll(async () => {
  for (const c of [master, agent, taker, reader]) c?.http.close();
  await net?.svc.stop();
});

describe('read-only client', () => {
  it('reads health, configuration and the asset', async () => {
    expect((await reader.getHealth()).status).toBe('ok');
    const cfg = await reader.getExchangeConfig(31337n);
    expect(cfg.chainId).toBe(31337n);
    expect(cfg.contracts.ledger.toLowerCase()).toBe(LEDGER.toLowerCase());
    const asset = await reader.getAsset(net.assetId);
    expect(asset).toMatchObject({ assetId: net.assetId, epoch: 0n, registered: true, isResolved: false });
    expect((await reader.getAssetAtEpoch(net.assetId, 0n)).expiration).toBe(asset.expiration);
    expect((await reader.getMarkPrice(net.assetId)).price).toBeGreaterThan(0n);
  });

  it('learns the exchange clock from response timestamps', async () => {
    await reader.getBalance(A);
    expect(Math.abs(reader.clock.now() - net.time.now)).toBeLessThan(5_000);
  });

  it('reads balances, books and agent status of any account', async () => {
    const bal = await reader.getBalance(A);
    expect(bal.balance).toBe(1_000_000_000n);
    const book = await reader.getOrderBook(net.assetId, 0n, { depth: 5 });
    expect(book.bids).toEqual([]);
    expect((await reader.getBookOrders(net.assetId, 0n, A)).buys).toEqual([]);
    const top = await reader.getTopOfBook(net.assetId, 0n);
    expect(top.bid?.orderCount ?? 0).toBe(0);
    expect((await reader.getPosition(A, net.assetId, 0n)).size).toBe(0n);
    expect(await reader.getAgentApproval(A)).toEqual({ agent: '', nonce: 0n, status: 'inactive' });
    expect(await reader.getAgentApprovalNonce(A)).toBe(0n);
    expect((await reader.getLedgerOrders(net.assetId, 0n)).orders).toEqual([]);
    expect((await reader.getLedgerOrders(net.assetId, 0n, A)).orders).toEqual([]);
    expect((await reader.getLedgerEntries(1n)).entries.length).toBeGreaterThan(0);
  });

  it('checks depth before sending and maps 404s to coded errors', async () => {
    await expect(reader.getOrderBook(net.assetId, 0n, { depth: 0 })).rejects.toMatchObject({ code: 'INVALID_DEPTH' });
    await expect(reader.getOrderBook(net.assetId, 0n, { depth: 5001 })).rejects.toBeInstanceOf(ExchangeValidationError);
    await expect(reader.getResolutionPrice(net.assetId, 0n)).rejects.toMatchObject({
      status: 404,
      code: 'RESOLUTION_NOT_FOUND',
    });
    await expect(reader.getLastResolutionPrice(net.assetId)).rejects.toMatchObject({
      status: 404,
      code: 'RESOLUTION_NOT_FOUND',
    });
    await expect(reader.getSettlementPrice(net.assetId, 0n)).rejects.toMatchObject({
      status: 404,
      code: 'ASSET_ID_NOT_EXPIRED',
    });
    await expect(reader.getClaimable(net.assetId, 0n, A)).rejects.toMatchObject({ code: 'EPOCH_NOT_RESOLVED' });
  });
});

describe('signed client', () => {
  it('refuses bad human inputs before signing anything', async () => {
    const c = net.client(KEYS.master);
    const signer = testSigner(KEYS.master);
    const strict = net.client(KEYS.master, { signer });
    for (const bad of [{ price: '50.05' }, { price: '0' }, { price: '100' }, { size: '0.001' }, { price: 50_500n }]) {
      await expect(
        strict.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '50', size: '1', ...bad }),
      ).rejects.toBeInstanceOf(ExchangeValidationError);
    }
    await expect(strict.withdraw({ amount: '1.001' })).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
    expect(signer.signed).toBe(0);
    c.http.close();
    strict.http.close();
  });

  it('places, lists, cancels, cancel-replaces and cancels all', async () => {
    const placed = await master.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '40', size: '2' });
    expect(placed.delivery).toBe('answered');
    if (placed.delivery !== 'answered') return;
    expect(placed.response).toMatchObject({ status: 'ACCEPTED', reason: '', remaining: 2_000_000n });
    expect(placed.response.orderId).toBe(placed.orderHash);
    const mine = await master.getBookOrders(net.assetId, 0n, A);
    expect(mine.buys.map((o) => o.id)).toEqual([placed.orderHash]);

    const cr = await master.cancelReplaceOrder({
      assetId: net.assetId,
      epoch: 0n,
      cancelOrderHash: placed.orderHash,
      side: 'buy',
      price: '41',
      size: '3',
      timeInForce: 'ALO',
    });
    expect(cr.delivery === 'answered' && cr.response.status).toBe('SUCCESS');
    const after = await master.getBookOrders(net.assetId, 0n, A);
    expect(after.buys).toHaveLength(1);
    expect(after.buys[0]!.size).toBe(3_000_000n);

    const cancel = await master.cancelOrder({ assetId: net.assetId, epoch: 0n, orderHash: after.buys[0]!.id });
    expect(cancel.delivery === 'answered' && cancel.response.status).toBe('CANCELLED');

    await master.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'sell', price: '60', size: '1' });
    await master.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'sell', price: '61', size: '1' });
    const all = await master.cancelAll({ assetId: net.assetId, epoch: 0n });
    expect(all.delivery === 'answered' && all.response.orderIds).toHaveLength(2);
    expect((await master.getBookOrders(net.assetId, 0n, A)).sells).toEqual([]);
  });

  it('trades, tracks own fills, and claims after resolution', async () => {
    const account = new AccountState({ reader: master, account: A, currentEpoch: () => 0n });
    const maker = await master.placeOrder({ assetId: net.assetId, epoch: 0n, side: 'buy', price: '55', size: '5' });
    account.trackOrder(maker.orderHash);
    const take = await taker.placeOrder({
      assetId: net.assetId,
      epoch: 0n,
      side: 'sell',
      price: '55',
      size: '5',
      timeInForce: 'IOC',
    });
    expect(take.delivery === 'answered' && take.response.status).toBe('FILLED');
    expect(await account.refresh(net.assetId, 0n)).toBe(true);
    expect(account.position(net.assetId, 0n)?.inventory).toBe(5_000_000n);
    expect(account.inventory(net.assetId, 0n)).not.toBe(0n);

    const roll: bigint[] = [];
    const watcher = new EpochWatcher({ reader, pollMs: 60_000, onEpoch: (_a, _p, cur) => roll.push(cur) });
    await watcher.track(net.assetId);
    await net.advance(61_000);
    await watcher.poll(net.assetId);
    expect(roll).toEqual([0n, 1n]);
    expect(await account.refresh(net.assetId, 0n)).toBe(true); // currentEpoch says 0 still
    const stale = new AccountState({ reader: master, account: A, currentEpoch: (a) => watcher.current(a) });
    expect(await stale.refresh(net.assetId, 0n)).toBe(false); // epoch moved on: snapshot dropped

    const res = await reader.getResolutionPrice(net.assetId, 0n);
    expect(res.price).toBeGreaterThan(0n);
    expect((await reader.getLastResolutionPrice(net.assetId)).epoch).toBe(0n);
    expect((await reader.getSettlementPrice(net.assetId, 0n)).settlementPrice).toBe(res.price);
    const claimables = [...(await watcher.claimable(net.assetId, A)), ...(await watcher.claimable(net.assetId, T))];
    expect(claimables).toHaveLength(1);
    const winner = claimables[0]!;
    // The taker claims here; a winning master is left for its agent (next test).
    if ((await reader.getClaimable(net.assetId, 0n, T)).claimable > 0n) {
      expect(winner.claimable).toBe((await reader.getClaimable(net.assetId, 0n, T)).claimable);
      expect(await taker.claim({ assetId: net.assetId, epoch: 0n })).toMatchObject({ status: 'CLAIMED' });
      await expect(taker.claim({ assetId: net.assetId, epoch: 0n })).rejects.toMatchObject({
        code: 'NO_CLAIMABLE_AMOUNT',
      });
    }
    watcher.stop();
  });

  it('approves an agent, trades as the agent, and revokes it', async () => {
    await expect(master.approveAgent({ agent: A })).rejects.toMatchObject({ code: 'AGENT_CANNOT_APPROVE_ITSELF' });
    expect(await master.approveAgent({ agent: B })).toMatchObject({ status: 'SUCCESS' });
    const status = await reader.getAgentApproval(A);
    expect(status).toMatchObject({ agent: B.toLowerCase(), status: 'active' });
    // The approval nonce was computed from exchange time, 120–220 s ahead.
    const ahead = Number(status.nonce) - Math.floor(net.time.now / 1000);
    expect(ahead).toBeGreaterThan(100);
    expect(ahead).toBeLessThan(230);

    const epoch = 1n;
    const o = await agent.placeAgentOrder({
      master: A,
      assetId: net.assetId,
      epoch,
      side: 'buy',
      price: '30',
      size: '1',
    });
    expect(o.delivery === 'answered' && o.response.status).toBe('ACCEPTED');
    expect((await reader.getBookOrders(net.assetId, epoch, A)).buys.map((x) => x.id)).toEqual([o.orderHash]);
    const cr = await agent.cancelReplaceAgentOrder({
      master: A,
      assetId: net.assetId,
      epoch,
      cancelOrderHash: o.orderHash,
      side: 'buy',
      price: '31',
      size: '1',
    });
    expect(cr.delivery === 'answered' && cr.response.status).toBe('SUCCESS');
    const rest = (await reader.getBookOrders(net.assetId, epoch, A)).buys[0]!;
    const c = await agent.cancelAgentOrder({ master: A, assetId: net.assetId, epoch, orderHash: rest.id });
    expect(c.delivery === 'answered' && c.response.status).toBe('CANCELLED');
    await agent.placeAgentOrder({ master: A, assetId: net.assetId, epoch, side: 'sell', price: '70', size: '1' });
    const all = await agent.cancelAllAgent({ master: A, assetId: net.assetId, epoch });
    expect(all.delivery === 'answered' && all.response.orderIds).toHaveLength(1);
    if ((await reader.getClaimable(net.assetId, 0n, A)).claimable > 0n) {
      expect(await agent.claimAgent({ master: A, assetId: net.assetId, epoch: 0n })).toMatchObject({
        status: 'CLAIMED',
      });
    } else {
      // Authenticated as the agent, then judged on the merits.
      await expect(agent.claimAgent({ master: A, assetId: net.assetId, epoch: 0n })).rejects.toMatchObject({
        code: 'NO_CLAIMABLE_AMOUNT',
      });
    }

    expect(await master.revokeAgent()).toMatchObject({ status: 'SUCCESS' });
    expect((await reader.getAgentApproval(A)).status).toBe('inactive');
    // After revocation the status nonce is "0", which is below the sanity floor
    // (docs/protocol/agents.md#the-approval-nonce): refused before signing.
    await expect(
      agent.placeAgentOrder({ master: A, assetId: net.assetId, epoch, side: 'buy', price: '30', size: '1' }),
    ).rejects.toMatchObject({
      code: 'INVALID_APPROVAL_NONCE',
    });
  });

  it('signs the inner agent approval locally', async () => {
    const inner = await master.signAgentApproval({ agent: B, approvalNonce: 1_900_000_000n });
    expect(inner.approval).toMatchObject({ master: A, agent: B, approvalNonce: 1_900_000_000n });
    expect(inner.signature).toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('withdraws to the wallet by default', async () => {
    const w = await master.withdraw({ amount: '1.5' });
    expect(w.status).toBe('WITHDRAWN');
    await expect(master.withdraw({ amount: '100000' })).rejects.toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_LEDGER_BALANCE',
    });
  });

  it('signs offline and submits later, re-validating the wrapper', async () => {
    const signed = await master.buildSignedOrder({
      assetId: net.assetId,
      epoch: 1n,
      side: 'buy',
      price: '10',
      size: '1',
    });
    const tampered = JSON.parse(signed.bodyText) as { order: { size: string } };
    tampered.order.size = '2000000';
    await expect(master.submitSigned('orders', tampered)).rejects.toMatchObject({ code: 'DIGEST_MISMATCH' });
    await expect(master.submitSigned('orders', '{"order":{}}')).rejects.toBeInstanceOf(ExchangeValidationError);
    const r = await master.submitSigned('orders', signed.bodyText);
    expect(r).toMatchObject({ status: 'ACCEPTED', orderId: signed.orderHash });
    // The same bytes again: the exchange reports a duplicate.
    const dup = await master.submitSigned('orders', signed.body).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ExchangeHttpError);
    expect(dup).toMatchObject({ status: 404, code: 'ENTRY_PROCESSED' });
  });
});
