// The air-gapped round trip between two app cores on a real devnet (no bots): an online core that
// watches alice's account without her key, and a signing core that holds her key and never connects
// (its trading session is never started). Requests and responses travel as envelope text, as a file
// would carry them. Bob trades from the test process through the client library.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { devnetClient } from '../../src/exchange/bots';
import { depositAndWait } from '../../src/exchange/bots/client-venue';
import type { ExchangeClient } from '../../src/client';
import { TEST_PASSWORD, createTestCore, type TestCore } from '../support/test-core';
import { devnetDeploymentAt } from '../../src/main/settings';
import type { Address } from '../../src/shared/protocol';
import type { AccountView, InboxResult, PendingRequestView, ReceivedRequestView } from '../../src/shared/bridge';
import type { TempDevnet } from '../devnet-kit';
import { coreCalls } from '../core/core-calls';
import { createTradingCore, startTradingDevnet } from '../core/trading-devnet';

const SHORT = 12n;
const wait = { timeout: 40_000, interval: 200 };
const C = 1_000_000n;

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let online: TestCore;
let signer: TestCore;
let alice: Address;
let bobKey: `0x${string}`;
let bob: ExchangeClient;
let btcAsset: string;
let eth: { assetId: string; epoch: string };

const on = coreCalls(
  () => online,
  () => [],
);
const off = coreCalls(
  () => signer,
  () => [],
);

interface Market {
  assetId: string;
  epoch: string;
  expiration: number;
}

type Action = Record<string, unknown> & { kind: string };

/** Online: prepare; the request's text to the signer; signer: read, sign; the response's text back; online: read. */
async function signedOffline(action: Action): Promise<PendingRequestView> {
  const prepared = await on.ok<PendingRequestView>('airgap.prepare', { master: alice, action });
  expect(prepared.state).toBe('waiting');
  const { text } = await on.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
  const read = await off.ok<InboxResult>('airgap.receiveText', { text, via: 'file' });
  if (read.kind !== 'request') throw new Error(`expected a request, read ${read.kind}`);
  const received: ReceivedRequestView = read.request;
  // Both machines show the same fingerprint and the same words for the same request.
  expect(received.fingerprint).toBe(prepared.fingerprint);
  expect(received.lines).toEqual(prepared.lines);
  expect(received.domainPinned).toBe(true);
  if (received.movesValue) signer.dialogs.answer({ kind: 'confirm', yes: true });
  const signed = await off.ok<{ confirmed: true; value: ReceivedRequestView }>('airgap.sign', { id: prepared.id });
  expect(signed.value.signed).toBe(true);
  const response = await off.ok<{ text: string }>('airgap.envelopeText', { kind: 'response', id: prepared.id });
  const back = await on.ok<InboxResult>('airgap.receiveText', { text: response.text, via: 'file' });
  expect(back).toMatchObject({ kind: 'response', request: { id: prepared.id, state: 'signed' } });
  return prepared;
}

async function submit(id: string, movesValue: boolean): Promise<string> {
  if (movesValue) online.dialogs.answer({ kind: 'confirm', yes: true });
  const r = await on.ok<{ confirmed: true; value: { status: string } }>('airgap.submit', { id });
  expect(r.confirmed).toBe(true);
  return r.value.status;
}

async function view(): Promise<AccountView> {
  return on.ok<AccountView>('account.get');
}

async function freshBtcEpoch(): Promise<Market> {
  let btc: Market = { assetId: '', epoch: '', expiration: 0 };
  await vi.waitFor(async () => {
    btc = (await on.ok<Market[]>('markets.list')).find((m) => m.assetId === btcAsset)!;
    expect(btc.expiration - Date.now()).toBeGreaterThan(7_000);
  }, wait);
  return btc;
}

beforeAll(async () => {
  temp = await startTradingDevnet('airgap-round-trip-', { demoAccounts: 2, btcEpochSeconds: SHORT, flatBtc: true });
  devnet = temp.devnet;
  ({ core: online, btcAsset } = await createTradingCore(devnet));
  signer = await createTestCore();
  alice = devnet.accounts[0]!.address;
  bobKey = devnet.accounts[1]!.privateKey;
  bob = devnetClient(devnet, bobKey, { timeoutMs: 10_000, doctor: false });
  await devnet.exchange.credit(alice, 1_000_000_000n);
  await devnet.exchange.credit(devnet.accounts[1]!.address, 1_000_000_000n);
  // Credits are off chain: a real deposit puts tokens in the ledger, so a withdrawal can be paid on chain.
  await depositAndWait({
    account: devnet.accounts[1]!,
    amount: '50',
    rpcUrl: devnet.rpcUrl,
    chainId: devnet.chainId,
    contracts: devnet.contracts,
    domainName: devnet.domainName,
    confirmations: 1,
    httpUrl: devnet.httpUrl,
  });

  for (const t of [on, off]) await t.ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  // The signer holds alice's key and bob's; the online core holds no key at all.
  await off.ok('keys.importPrivateKey', { privateKey: devnet.accounts[0]!.privateKey, label: 'alice' });
  await off.ok('keys.importPrivateKey', { privateKey: bobKey, label: 'bob' });

  online.settings.updateSettings({ deployments: [devnetDeploymentAt(devnet)] });
  await vi.waitFor(
    async () => expect((await on.ok<{ pin: { kind: string } }>('app.connection')).pin.kind).toBe('pinned'),
    wait,
  );
  expect(await on.ok('airgap.watchAdd', { address: alice, label: 'alice (cold)' })).toMatchObject({ address: alice });
  await on.ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  const e = (await on.ok<Market[]>('markets.list')).find((m) => m.assetId !== btcAsset)!;
  eth = { assetId: e.assetId, epoch: e.epoch };
}, 120_000);

afterAll(async () => {
  online?.close();
  signer?.close();
  await temp?.stop();
});

describe('a watch-only account', () => {
  it('is read like a held key, and refuses to sign as the master with a sentence', async () => {
    const v = await view();
    expect(v.selection.master).toBe(alice);
    await vi.waitFor(async () => expect(BigInt((await view()).balance?.available ?? '0')).toBeGreaterThan(0n), wait);
    expect(v.error).toBeNull();
    const refused = await on.err('orders.place', {
      ...eth,
      side: 'buy',
      price: '20',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'master',
    });
    expect(refused.code).toBe('account.watch_only');
    expect(refused.message).toMatch(/prepare the action for offline signing/i);
    // Adding it again changes nothing; where its key is held, it cannot be watch-only.
    expect(await on.ok<unknown[]>('airgap.watchList')).toHaveLength(1);
    expect(await on.ok('airgap.watchAdd', { address: alice })).toMatchObject({ label: 'alice (cold)' });
    expect(await on.ok<unknown[]>('airgap.watchList')).toHaveLength(1);
    expect((await off.err('airgap.watchAdd', { address: alice })).code).toBe('keys.duplicate');
  });
});

describe('the signing machine pins a domain it never saw only through its dialog', () => {
  it('refuses to sign, then pins after the dialog showing the fingerprint', async () => {
    const prepared = await on.ok<PendingRequestView>('airgap.prepare', {
      master: alice,
      action: { kind: 'cancelAll', ...eth },
    });
    const { text } = await on.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
    const read = await off.ok<{ kind: 'request'; request: ReceivedRequestView }>('airgap.receiveText', {
      text,
      via: 'file',
    });
    expect(read.request.domainPinned).toBe(false);
    const refused = await off.err('airgap.sign', { id: prepared.id });
    expect(refused.code).toBe('airgap.domain_not_pinned');
    expect(refused.message).toContain(prepared.fingerprint);
    signer.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await off.ok('airgap.pinDomain', { id: prepared.id })).toEqual({ confirmed: false });
    expect((await off.err('airgap.sign', { id: prepared.id })).code).toBe('airgap.domain_not_pinned');
    signer.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await off.ok('airgap.pinDomain', { id: prepared.id })).toMatchObject({
      confirmed: true,
      value: { domainPinned: true },
    });
    const shown = signer.dialogs.shown.filter((d) => d.kind === 'confirm');
    expect(shown.at(-1)!.request.detail).toContain(prepared.fingerprint);
    expect(await on.ok('airgap.discard', { id: prepared.id })).toBe(true);
  });
});

describe('round trips by file text', () => {
  let restingHash = '';

  it('an order: prepared online, signed offline, sent online, and it rests on the devnet', async () => {
    const prepared = await signedOffline({
      kind: 'order',
      ...eth,
      side: 'buy',
      price: '21',
      size: '3',
      timeInForce: 'GTC',
    });
    expect(prepared.lines[0]).toMatch(/^Buy 3 contracts at 21¢ \(GTC\)/);
    // An order passes the order gate on both machines: with order confirmation on, main asks.
    expect(await submit(prepared.id, true)).toBe('ACCEPTED');
    await vi.waitFor(async () => {
      const open = (await view()).openOrders.filter((o) => o.assetId === eth.assetId);
      expect(open.map((o) => [o.side, o.price, o.size])).toEqual([['buy', '210000', '3000000']]);
      restingHash = open[0]!.orderId;
    }, wait);
    expect(restingHash).toMatch(/^0x/);
  }, 60_000);

  it('refuses a tampered, a foreign-key, an other-domain and a replayed response before anything is sent', async () => {
    const prepared = await on.ok<PendingRequestView>('airgap.prepare', {
      master: alice,
      action: { kind: 'order', ...eth, side: 'buy', price: '22', size: '1', timeInForce: 'GTC' },
    });
    const { text } = await on.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
    await off.ok('airgap.receiveText', { text, via: 'file' });
    signer.dialogs.answer({ kind: 'confirm', yes: true });
    await off.ok('airgap.sign', { id: prepared.id });
    const good = JSON.parse(
      (await off.ok<{ text: string }>('airgap.envelopeText', { kind: 'response', id: prepared.id })).text,
    ) as { signer: string; domain: { chainId: string }; signatures: { digest: string; signature: string }[] };

    const sig = good.signatures[0]!.signature;
    const flipped = sig.slice(0, 10) + (sig[10] === 'a' ? 'b' : 'a') + sig.slice(11);
    const tampered = { ...good, signatures: [{ ...good.signatures[0]!, signature: flipped }] };
    const bobWallet = new Wallet(bobKey);
    const bobSignature = bobWallet.signingKey.sign(good.signatures[0]!.digest).serialized;
    const byBob = {
      ...good,
      signer: bobWallet.address,
      signatures: [{ ...good.signatures[0]!, signature: bobSignature }],
    };
    const bobUnderAlice = { ...good, signatures: [{ ...good.signatures[0]!, signature: bobSignature }] };
    const otherDomain = { ...good, domain: { ...good.domain, chainId: (BigInt(good.domain.chainId) + 1n).toString() } };
    for (const bad of [tampered, byBob, bobUnderAlice, otherDomain]) {
      const refused = await on.err('airgap.receiveText', { text: JSON.stringify(bad), via: 'file' });
      expect(refused.code).toMatch(/^airgap\./);
      expect(refused.message.length).toBeGreaterThan(20);
      expect((await on.err('airgap.submit', { id: prepared.id })).code).toBe('airgap.not_signed');
    }
    const pending = await on.ok<PendingRequestView[]>('airgap.pending');
    expect(pending.find((p) => p.id === prepared.id)!.state).toBe('waiting');
    const open = (await view()).openOrders.filter((o) => o.assetId === eth.assetId);
    expect(open.map((o) => o.price)).toEqual(['210000']);

    // The good one is accepted once; the same response again is a replay, refused with a sentence.
    await on.ok('airgap.receiveText', { text: JSON.stringify(good), via: 'file' });
    expect(await submit(prepared.id, true)).toBe('ACCEPTED');
    const replay = await on.err('airgap.receiveText', { text: JSON.stringify(good), via: 'file' });
    expect(replay.code).toBe('airgap.replayed');
    expect(replay.message).toMatch(/already used/);
    expect((await on.err('airgap.submit', { id: prepared.id })).code).toBe('airgap.replayed');
  }, 60_000);

  it('a cancel-all by files through main’s save and open dialogs: every order of the market is gone', async () => {
    const prepared = await on.ok<PendingRequestView>('airgap.prepare', {
      master: alice,
      action: { kind: 'cancelAll', ...eth },
    });
    const requestFile = join(temp!.dir, 'request.json');
    online.dialogs.answer({ kind: 'saveFile', path: requestFile });
    expect(await on.ok('airgap.saveFile', { kind: 'request', id: prepared.id })).toEqual({
      confirmed: true,
      value: { path: requestFile },
    });
    signer.dialogs.answer({ kind: 'openFile', content: readFileSync(requestFile, 'utf8') });
    const opened = await off.ok<{ confirmed: true; value: InboxResult }>('airgap.openFile');
    expect(opened.value).toMatchObject({ kind: 'request', request: { fingerprint: prepared.fingerprint } });
    await off.ok('airgap.sign', { id: prepared.id });
    const responseFile = join(temp!.dir, 'response.json');
    signer.dialogs.answer({ kind: 'saveFile', path: responseFile });
    await off.ok('airgap.saveFile', { kind: 'response', id: prepared.id });
    online.dialogs.answer({ kind: 'openFile', content: readFileSync(responseFile, 'utf8') });
    expect(await on.ok('airgap.openFile')).toMatchObject({ confirmed: true, value: { kind: 'response' } });
    expect(await submit(prepared.id, false)).toBe('CANCELLED');
    await vi.waitFor(
      async () => expect((await view()).openOrders.filter((o) => o.assetId === eth.assetId)).toEqual([]),
      wait,
    );
  }, 60_000);

  it('a claim after a short epoch resolves, for the winning payout', async () => {
    const m = await freshBtcEpoch();
    const bobAnswer = await bob.placeOrder({
      assetId: BigInt(m.assetId),
      epoch: BigInt(m.epoch),
      side: 'sell',
      price: 500_000n,
      size: 2n * C,
      timeInForce: 'GTC',
    });
    expect(bobAnswer.delivery).toBe('answered');
    const taken = await signedOffline({
      kind: 'order',
      assetId: m.assetId,
      epoch: m.epoch,
      side: 'buy',
      price: '50',
      size: '2',
      timeInForce: 'IOC',
    });
    expect(await submit(taken.id, true)).toBe('FILLED');
    await vi.waitFor(async () => {
      const claims = await on.ok<{ assetId: string; epoch: string; amount: string }[]>('claims.list');
      expect(claims.find((c) => c.assetId === m.assetId && c.epoch === m.epoch)?.amount).toBe('2000000');
    }, wait);
    const before = (await bob.getBalance(alice)).balance;
    const claim = await signedOffline({ kind: 'claim', assetId: m.assetId, epoch: m.epoch });
    expect(await submit(claim.id, false)).toBe('CLAIMED');
    expect((await bob.getBalance(alice)).balance - before).toBe(2n * C);
  }, 90_000);

  it('a withdrawal, confirmed in main’s dialog on both machines, is paid on chain', async () => {
    const prepared = await signedOffline({ kind: 'withdrawal', amount: '7' });
    const signDialog = signer.dialogs.shown.filter((d) => d.kind === 'confirm').at(-1)!;
    expect(signDialog.request.detail).toContain(prepared.fingerprint);
    expect(signDialog.request.detail).toContain('$7.00');
    online.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await on.ok('airgap.submit', { id: prepared.id })).toEqual({ confirmed: false });
    await submit(prepared.id, true);
    await vi.waitFor(async () => {
      const list = await on.ok<{ amount: string; status: string; txHash: string | null }[]>('funds.withdrawals');
      expect(list.find((w) => w.amount === '7000000')).toMatchObject({
        status: 'PAID',
        txHash: expect.stringMatching(/^0x/) as string,
      });
    }, wait);
  }, 90_000);
});

describe('agents of a watch-only master', () => {
  it('approves an agent held online by a round trip, trades through it, and revokes it by another', async () => {
    const agent = (await on.ok<{ address: string }>('keys.create', { label: 'hot agent', role: 'agent' })).address;
    const approval = await signedOffline({ kind: 'approveAgent', agent });
    expect(approval.movesValue).toBe(true);
    expect(approval.lines[0]).toContain(agent);
    const signDialog = signer.dialogs.shown.filter((d) => d.kind === 'confirm').at(-1)!;
    expect(signDialog.request.detail).toContain(approval.fingerprint);
    await submit(approval.id, true);
    await vi.waitFor(async () => {
      expect(await on.ok('agents.status')).toMatchObject({ agent, status: 'active' });
    }, wait);

    // The agent key on this machine trades for the watch-only master, as for any master.
    await on.ok('account.select', { master: alice, agent, tradeAs: 'agent' });
    online.dialogs.answer({ kind: 'confirm', yes: true }); // the order confirmation, on by default
    const placed = await on.ok<{ status: string }>('orders.place', {
      ...eth,
      side: 'buy',
      price: '23',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'agent',
    });
    expect(placed.status).toBe('ACCEPTED');

    const revocation = await signedOffline({ kind: 'revokeAgent' });
    await submit(revocation.id, false);
    await vi.waitFor(async () => {
      expect(await on.ok('agents.status')).toMatchObject({ status: 'inactive' });
    }, wait);
    await on.ok('account.select', { master: alice, agent: null, tradeAs: 'master' });
  }, 60_000);
});

describe('asking before every offline signature', () => {
  it('is turned on freely, asks before an order is signed, and is turned off only through main’s dialog', async () => {
    expect(await off.ok('airgap.setAlwaysConfirm', true)).toBe(true);
    const prepared = await on.ok<PendingRequestView>('airgap.prepare', {
      master: alice,
      action: { kind: 'cancelAll', ...eth },
    });
    const { text } = await on.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
    await off.ok('airgap.receiveText', { text, via: 'file' });
    signer.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await off.ok('airgap.sign', { id: prepared.id })).toEqual({ confirmed: false });
    expect((await off.err('airgap.envelopeText', { kind: 'response', id: prepared.id })).code).toBe('airgap.not_found');
    signer.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await off.ok('airgap.sign', { id: prepared.id })).toMatchObject({
      confirmed: true,
      value: { signed: true },
    });

    signer.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await off.ok('airgap.setAlwaysConfirm', false)).toBe(true);
    expect(await off.ok('airgap.alwaysConfirm')).toBe(true);
    signer.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await off.ok('airgap.setAlwaysConfirm', false)).toBe(false);
    expect(await on.ok('airgap.discard', { id: prepared.id })).toBe(true);
  });
});
