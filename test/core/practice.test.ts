// Practice mode through core.invoke, as the window calls it, on a practice worker double (the devnet
// exchange without a chain under practice's domain, with one bot): entering it from a first run
// without a dialog, from a real deployment only after main's dialog; the practice key made for it
// and kept apart both ways (lists, account.select, the vault's signer); play money; a bought
// position closed; "Reset practice" behind main's dialog; every dialog of practice saying so; and
// a practice signature that verifies under no other deployment's domain.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Wallet } from 'ethers';
import { appMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { vaultSigner } from '../../src/main/core/session/vault-signer';
import { Clearances } from '../../src/main/core/risk/clearances';
import { DEVNET_DEPLOYMENT, type Deployment } from '../../src/main/settings';
import { PRACTICE_DEPLOYMENT_ID, PRACTICE_GRANT } from '../../src/shared/practice';
import type { AccountView, KeyInfo, MarketSummary, PracticeStatus, SignedPayload } from '../../src/shared/bridge';
import {
  hashAction,
  makeExchangeDomain,
  parseSignedRequest,
  recoverDigestSigner,
  REQUEST_KINDS,
  type Address,
  type ExchangeDomain,
  type Hex,
} from '../../src/shared/protocol';
import { practiceDomain } from '../../src/main/core/practice/practice-domain';
import { coreCalls, type RecordedEvent } from './core-calls';
import { practiceWorkerDouble, type WorkerDouble } from '../practice/worker-double';

const wait = { timeout: 40_000, interval: 200 };
let t: TestCore;
let double: WorkerDouble;
const events: RecordedEvent[] = [];
const { ok, err, of } = coreCalls(
  () => t,
  () => events,
);

/** A real deployment as the user added it (confirmed, pinned); nothing answers at its address. */
const REAL: Deployment = {
  id: 'real-exchange',
  name: 'Real exchange',
  httpUrl: 'http://127.0.0.1:9/',
  marketWsUrl: 'ws://127.0.0.1:9/ws/',
  oracleWsUrl: 'ws://127.0.0.1:9/oracle-ws/',
  rpcUrl: 'http://127.0.0.1:9/',
  chainId: '8453',
  confirmedAt: '2026-01-01T00:00:00.000Z',
};
const REAL_FACTS = {
  chainId: '8453',
  verifyingContract: Wallet.createRandom().address,
  domainName: 'Service Exchange',
  spenders: { depositLedger: null, settlementToken: null, permit2: null },
};

let realKey: KeyInfo;
let practiceKey: string;
/** The second practice key, made in practice (the agent, and the cold key of the air-gapped round trip). */
let secondKey: string;

function lastConfirm() {
  const d = t.dialogs.shown.filter((x) => x.kind === 'confirm').at(-1);
  return d?.kind === 'confirm' ? d.request : null;
}

/**
 * One order against the bot's quote on `side` of `market`, read again on each try until the order
 * ends `wanted`. The bot re-quotes as fair value moves and, on a machine so loaded that its oracle
 * feed falls behind, pulls its quotes until the feed is live again (as a market maker should): an
 * order that met nothing (CANCELLED, NO_LIQUIDITY) is sent again once the quote is back, as a trader
 * would. Main's dialog is answered yes once for the order that opens it, never left queued.
 */
async function againstBotQuote(
  market: MarketSummary,
  side: 'bestAsk' | 'bestBid',
  wanted: string,
  send: (quote: string) => Promise<{ status: string }>,
): Promise<void> {
  await vi.waitFor(async () => {
    const m = (await ok<MarketSummary[]>('markets.list')).find((x) => x.assetId === market.assetId);
    expect(m?.epoch).toBe(market.epoch);
    expect(m?.[side]).not.toBeNull();
    if (t.dialogs.pending() === 0) t.dialogs.answer({ kind: 'confirm', yes: true });
    expect((await send(m![side]!)).status).toBe(wanted);
  }, wait);
  expect(t.dialogs.pending()).toBe(0);
}

beforeAll(async () => {
  double = practiceWorkerDouble({ bots: 1 });
  t = await createTestCore({
    defaultDeployments: [],
    practice: { spawn: double.spawn },
    trading: { markets: appMarkets(null), pollMs: 250, healthMs: 1000 },
  });
  for (const event of ['notice', 'connection', 'keys', 'settings'] as const)
    t.core.on(event, (payload) => events.push({ event, payload }));
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  realKey = await ok<KeyInfo>('keys.create', { label: 'Real money' });
}, 60_000);

afterAll(async () => {
  await t?.practice?.host.stop();
  t?.close();
  await double?.stopAll();
});

describe('practice mode through main', () => {
  it('starts from a first run with no dialog, with a practice key of its own and only that key offered', async () => {
    expect(t.settings.getSettings().selectedDeploymentId).toBe('');
    expect(realKey.practice).toBe(false);
    const started = await ok<{ confirmed: true; value: PracticeStatus }>('practice.start');
    expect(t.dialogs.shown).toEqual([]);
    expect(started.value).toMatchObject({ active: true, state: 'ready', problem: null });
    expect(started.value.keys).toHaveLength(1);
    practiceKey = started.value.keys[0]!;
    expect(t.settings.getSettings().selectedDeploymentId).toBe(PRACTICE_DEPLOYMENT_ID);
    // Pinned by main with practice's own constants: nothing waits for a person.
    expect(t.pinning.pinFor(PRACTICE_DEPLOYMENT_ID)).toMatchObject({
      chainId: practiceDomain().chainId.toString(),
      verifyingContract: practiceDomain().verifyingContract,
      domainName: practiceDomain().name,
    });
    const keys = await ok<KeyInfo[]>('keys.list');
    expect(keys.map((k) => [k.address, k.practice])).toEqual([[practiceKey, true]]);
    expect(
      of<KeyInfo[]>('keys')
        .at(-1)
        ?.map((k) => k.address),
    ).toEqual([practiceKey]);
    const connection = await ok<{ practice: boolean; feeds: { feed: string }[] }>('app.connection');
    expect(connection.practice).toBe(true);
    // No chain in practice: the status bar shows no chain node to wait for.
    expect(connection.feeds.map((f) => f.feed)).not.toContain('chain');
  }, 60_000);

  it('never offers or uses a real key in practice', async () => {
    expect(await err('account.select', { master: realKey.address, agent: null, tradeAs: 'master' })).toEqual({
      code: 'keys.other_world',
      message: 'That key is not offered here: practice keys trade only in practice, and real keys never do.',
    });
    expect(await err('keys.importPrivateKey', { privateKey: Wallet.createRandom().privateKey })).toMatchObject({
      code: 'keys.practice_import',
    });
    // A new key made in practice is a practice key (the second one, for the air-gapped round trip).
    const second = await ok<KeyInfo>('keys.create', { label: 'Practice cold key' });
    expect(second.practice).toBe(true);
    secondKey = second.address;
    expect((await ok<KeyInfo[]>('keys.list')).map((k) => k.address).sort()).toEqual(
      [practiceKey, second.address].sort(),
    );
    // The vault itself refuses a real key under practice's domain.
    await expect(t.vault.signDigest(realKey.address, `0x${'11'.repeat(32)}`, 'practice')).rejects.toMatchObject({
      code: 'WRONG_WORLD',
    });
  });

  it('shows a live book, adds play money, buys from the bot and closes the position', async () => {
    const view = await vi.waitFor(async () => {
      const v = await ok<AccountView>('account.get');
      expect(v.selection.master).toBe(practiceKey);
      return v;
    }, wait);
    // A new practice account starts with $1,000 of play money; Add $1,000 adds as much again.
    expect(view.balance?.available).toBe(PRACTICE_GRANT.toString());
    const added = await ok<{ amount: string; account: string }>('practice.addFunds');
    expect(added).toEqual({ amount: PRACTICE_GRANT.toString(), account: practiceKey });
    expect((await ok<AccountView>('account.get')).balance?.available).toBe((2n * PRACTICE_GRANT).toString());
    expect(of<{ message: string }>('notice').some((n) => n.message === '$1,000.00 of play money added.')).toBe(true);

    // A market quoted both ways with room to buy and close before its epoch ends: on a loaded machine
    // the close of one bought near the end found the book of an ended epoch (NO_LIQUIDITY).
    const market = await vi.waitFor(async () => {
      const list = await ok<MarketSummary[]>('markets.list');
      const m = list.find((x) => x.bestAsk !== null && x.bestBid !== null && x.expiration - Date.now() > 30_000);
      expect(m).toBeDefined();
      return m!;
    }, wait);
    // Bought from the bot's ask as read now (an ask read a moment ago can be gone when the IOC lands).
    await againstBotQuote(market, 'bestAsk', 'FILLED', (ask) =>
      ok('orders.place', {
        assetId: market.assetId,
        epoch: market.epoch,
        side: 'buy',
        price: (Number(ask) / 10_000).toString(),
        size: '1',
        timeInForce: 'IOC',
        signAs: 'master',
      }),
    );
    // The order's dialog is main's, and says Practice.
    expect(lastConfirm()?.title.startsWith('Practice · ')).toBe(true);
    expect(lastConfirm()?.detail.startsWith('PRACTICE: play money')).toBe(true);
    await vi.waitFor(async () => {
      const v = await ok<AccountView>('account.get');
      expect(v.positions.find((p) => p.assetId === market.assetId && p.epoch === market.epoch)?.size).toBe('1000000');
    }, wait);
    // Closed into the bot's bid (it re-quotes after the fill took its ask).
    await againstBotQuote(market, 'bestBid', 'CLOSED', () =>
      ok('orders.flatten', { assetId: market.assetId, epoch: market.epoch, signAs: 'master' }),
    );
  }, 90_000);

  it('approves the second practice key as an agent, trades as it, and revokes it', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const approved = await ok<{ confirmed: true; value: { status: string; agent: string } }>('agents.approve', {
      agent: secondKey,
    });
    expect(approved.value).toMatchObject({ status: 'active', agent: secondKey });
    expect(lastConfirm()?.title).toBe('Practice · Approve agent');
    const view = await ok<AccountView>('account.select', { master: practiceKey, agent: secondKey, tradeAs: 'agent' });
    expect(view.selection).toEqual({ master: practiceKey, agent: secondKey, tradeAs: 'agent' });
    const market = await vi.waitFor(async () => {
      const m = (await ok<MarketSummary[]>('markets.list')).find((x) => x.bestBid !== null);
      expect(m).toBeDefined();
      return m!;
    }, wait);
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const placed = await ok<{ status: string }>('orders.place', {
      assetId: market.assetId,
      epoch: market.epoch,
      side: 'buy',
      price: '1',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'agent',
    });
    expect(placed.status).toBe('ACCEPTED');
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('agents.revoke')).toMatchObject({ confirmed: true });
    await ok('account.select', { master: practiceKey, agent: null, tradeAs: 'master' });
  }, 60_000);

  it('signs under practice’s domain only: its signature verifies under no other deployment’s domain', async () => {
    const market = (await ok<MarketSummary[]>('markets.list'))[0]!;
    // Order confirmation is on: main's order dialog first (it says Practice).
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const signed = await ok<{ confirmed: true; value: SignedPayload }>('offline.sign', {
      signer: practiceKey,
      action: {
        kind: 'order',
        assetId: market.assetId,
        epoch: market.epoch,
        side: 'buy',
        price: '1',
        size: '1',
        timeInForce: 'GTC',
      },
    });
    const request = parseSignedRequest('orders', signed.value.body) as unknown as Record<string, unknown>;
    const action = request['order'] as never;
    const signature = request['signature'] as Hex;
    const recoverUnder = (domain: ExchangeDomain): string =>
      recoverDigestSigner(hashAction(REQUEST_KINDS.orders.primaryType, action, domain), signature);
    expect(recoverUnder(practiceDomain())).toBe(practiceKey);
    // The devnet's domain (its chain and the exchange contract its launcher deploys) …
    const devnetDomain = makeExchangeDomain({
      chainId: BigInt(DEVNET_DEPLOYMENT.chainId),
      verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
    expect(recoverUnder(devnetDomain)).not.toBe(practiceKey);
    // … and every deployment configured here with its pin.
    t.pinning.acceptPin(REAL.id, REAL_FACTS);
    for (const [id, pin] of Object.entries(t.settings.getSettings().pins)) {
      if (id === PRACTICE_DEPLOYMENT_ID) continue;
      const domain = makeExchangeDomain({
        chainId: BigInt(pin.chainId),
        verifyingContract: pin.verifyingContract as Address,
        name: pin.domainName,
      });
      expect(recoverUnder(domain), id).not.toBe(practiceKey);
    }
    // And main's signer will not even try: a practice key under another domain is refused by the vault.
    const signer = vaultSigner(t.vault, practiceKey, new Clearances(Date.now));
    const claim = {
      typ: 5n,
      nonce: 1n,
      signer: practiceKey,
      signatureType: 0n,
      sender: practiceKey,
      assetId: BigInt(market.assetId),
      epoch: BigInt(market.epoch),
      approvalNonce: 0n,
    } as never;
    const digest = hashAction('ClaimOrder', claim, devnetDomain);
    await signer.review!({
      primaryType: 'ClaimOrder',
      digest,
      signer: practiceKey as Address,
      action: claim,
      domain: devnetDomain,
    });
    await expect(signer.signDigest(digest)).rejects.toMatchObject({ code: 'WRONG_WORLD' });
  }, 30_000);

  it('leaves for a real deployment with only real keys offered, and comes back only after main’s dialog', async () => {
    const s = t.settings.getSettings();
    t.settings.updateSettings({ deployments: [...s.deployments, REAL], selectedDeploymentId: REAL.id });
    await vi.waitFor(() => expect(t.practice?.host.status().state).toBe('off'), wait);
    expect((await ok<KeyInfo[]>('keys.list')).map((k) => k.address)).toEqual([realKey.address]);
    expect(await err('account.select', { master: practiceKey, agent: null, tradeAs: 'master' })).toMatchObject({
      code: 'keys.other_world',
    });
    expect(await err('practice.addFunds')).toMatchObject({ code: 'practice.not_selected' });
    await expect(t.vault.signDigest(practiceKey, `0x${'22'.repeat(32)}`)).rejects.toMatchObject({
      code: 'WRONG_WORLD',
    });

    const shown = t.dialogs.shown.length;
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('practice.start')).toEqual({ confirmed: false });
    expect(t.dialogs.shown.length).toBe(shown + 1);
    expect(lastConfirm()).toMatchObject({ title: 'Switch to Practice', confirmLabel: 'Practice' });
    expect(lastConfirm()?.detail).toContain('Deployment: “Real exchange”');
    expect(t.settings.getSettings().selectedDeploymentId).toBe(REAL.id);
    expect(t.practice?.host.status().state).toBe('off');

    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('practice.start')).toMatchObject({ confirmed: true, value: { active: true, state: 'ready' } });
    expect(t.settings.getSettings().selectedDeploymentId).toBe(PRACTICE_DEPLOYMENT_ID);
    // The journal was kept: the play money is still there.
    await vi.waitFor(async () => {
      const v = await ok<AccountView>('account.get');
      expect(v.selection.master).toBe(practiceKey);
      expect(BigInt(v.balance?.available ?? '0')).toBeGreaterThan(0n);
    }, wait);
  }, 90_000);

  it('starts practice over only after main’s dialog', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('practice.reset')).toEqual({ confirmed: false });
    expect(lastConfirm()).toMatchObject({ title: 'Practice · Reset practice', confirmLabel: 'Reset practice' });
    expect(double.spawned.at(-1)?.fresh).toBe(false);

    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('practice.reset')).toMatchObject({ confirmed: true, value: { state: 'ready' } });
    expect(double.spawned.at(-1)?.fresh).toBe(true);
    // Started over: no position, and the $1,000 a fresh start begins with.
    await vi.waitFor(async () => {
      const v = await ok<AccountView>('account.get');
      expect(v.balance?.available).toBe(PRACTICE_GRANT.toString());
      expect(v.positions).toEqual([]);
    }, wait);
  }, 90_000);
});
