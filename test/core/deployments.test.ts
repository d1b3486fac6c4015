// Deployments and markets through core.invoke, as the window calls them, against a real devnet
// (as if it were a remote exchange) and a stub exchange that lies about its chain: the URL rules,
// the two dialogs before anything is trusted, the chain-id rule, trust on first use with a person,
// pinned spenders, and the market manager.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEVNET_SYMBOLS, defineMarket } from '../../src/exchange/markets';
import { devnetMarkets } from '../../src/main/core/session/market-directory';
import { devnetDeploymentAt, factsOf } from '../../src/main/settings';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { packAssetId, toChecksumAddress, unpackAssetId } from '../../src/shared/protocol';
import type { DevnetHandle } from '../../src/devnet/devnet';
import { startTempDevnet, type TempDevnet } from '../devnet-kit';
import { coreCalls, type RecordedEvent } from './core-calls';

const wait = { timeout: 30_000, interval: 100 };

let temp: TempDevnet | undefined;
let devnet: DevnetHandle;
let t: TestCore;
const events: RecordedEvent[] = [];
let stub: { server: Server; url: string; requests: string[]; chainId: string };
let assetId: string;

/** The request of the last dialog shown, when it was a confirmation. */
function lastConfirm() {
  const d = t.dialogs.shown.at(-1);
  return d?.kind === 'confirm' ? d.request : null;
}

const { ok, err } = coreCalls(
  () => t,
  () => events,
);

function draftFor(d: DevnetHandle, name = 'Remote test exchange') {
  return {
    name,
    httpUrl: d.httpUrl,
    marketWsUrl: d.marketWsUrl,
    oracleWsUrl: d.oracleWsUrl,
    rpcUrl: d.rpcUrl,
    chainId: d.chainId.toString(),
  };
}

/** An "exchange" that answers its configuration for any chain id with chain `stub.chainId`. */
async function startStub(): Promise<typeof stub> {
  const requests: string[] = [];
  const state = { chainId: '999' };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url?.startsWith('/config/chains/')) {
      return json(200, {
        chainId: state.chainId,
        contracts: { exchange: devnet.contracts.exchange, ledger: devnet.contracts.ledger },
      });
    }
    if (req.url === '/health') return json(200, { status: 'ok' });
    return json(404, { error: 'NOT_FOUND', message: 'no' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    requests,
    get chainId() {
      return state.chainId;
    },
    set chainId(v: string) {
      state.chainId = v;
    },
  };
}

beforeAll(async () => {
  temp = await startTempDevnet('core-deployments-', {
    bots: 0,
    demoAccounts: 1,
    blockTimeMs: 500,
    markets: (nowSec) => ({
      symbols: [DEVNET_SYMBOLS.BTC],
      markets: [defineMarket({ symbol: DEVNET_SYMBOLS.BTC, startTime: nowSec - (nowSec % 300n), periodLength: 300n })],
    }),
  });
  devnet = temp.devnet;
  assetId = devnet.markets.markets[0]!.assetId.toString();
  stub = await startStub();
  t = await createTestCore({
    defaultDeployments: [],
    trading: { markets: devnetMarkets([]), pollMs: 250, healthMs: 1000 },
    deployments: { readTimeoutMs: 5_000, oracleWaitMs: 5_000 },
  });
  for (const event of ['notice', 'connection', 'settings'] as const)
    t.core.on(event, (payload) => events.push({ event, payload }));
  await ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
}, 120_000);

afterAll(async () => {
  t?.close();
  stub?.server.close();
  await temp?.stop();
});

describe('deployments through main', () => {
  it('starts with no deployment: nothing to trade, nothing signed', async () => {
    expect(t.settings.getSettings()).toMatchObject({ deployments: [], selectedDeploymentId: '' });
    expect(await err('markets.list')).toMatchObject({ code: 'connection.no_deployment' });
  });

  it('refuses plain http to another host before any dialog or request', async () => {
    const e = await err('deployments.add', { ...draftFor(devnet), httpUrl: 'http://exchange.example.com/api' });
    expect(e).toMatchObject({
      code: 'settings.invalid',
      message: expect.stringMatching(/^The base URL must use https: .*exchange\.example\.com is not\.$/) as string,
    });
    expect(t.dialogs.shown).toHaveLength(0);
  });

  it('contacts nothing when the user declines the first dialog, saves nothing when they decline the second', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.add', { ...draftFor(devnet), httpUrl: stub.url })).toEqual({ confirmed: false });
    expect(stub.requests).toEqual([]);
    expect(t.dialogs.shown.at(-1)).toMatchObject({ kind: 'confirm', request: { title: 'Connect to an exchange' } });

    t.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'confirm', yes: false });
    expect(await ok('deployments.add', draftFor(devnet))).toEqual({ confirmed: false });
    expect(t.settings.getSettings()).toMatchObject({ deployments: [], pins: {}, pendingPinChanges: {} });
  });

  it('pins nothing when the exchange or the RPC serves another chain than the one typed', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await err('deployments.add', { ...draftFor(devnet), httpUrl: stub.url })).toEqual({
      code: 'deployments.chain_mismatch',
      message: `The exchange at ${new URL(stub.url).host} serves chain 999, but this deployment is set to chain ${devnet.chainId}: nothing was pinned and nothing will be signed.`,
    });
    expect(stub.requests).toEqual([`GET /config/chains/${devnet.chainId}`]);

    // The exchange agrees, but the RPC node is on another chain: typed 31337 against a node… of 31337 with
    // the exchange saying 31337 passes, so type another id the stub then echoes.
    stub.chainId = '5';
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await err('deployments.add', { ...draftFor(devnet), httpUrl: stub.url, chainId: '5' })).toMatchObject({
      code: 'deployments.chain_mismatch',
      message: expect.stringMatching(
        /^The RPC node at 127\.0\.0\.1:\d+ serves chain 31337, but this deployment is set to chain 5: nothing was pinned/,
      ) as string,
    });
    expect(
      t.dialogs.shown.filter((d) => d.kind === 'confirm' && d.request.title === 'Trust this exchange'),
    ).toHaveLength(1);
    expect(t.settings.getSettings()).toMatchObject({ deployments: [], pins: {} });
  });

  it('adds, pins and selects after two yeses; the second dialog shows every fact to pin', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'confirm', yes: true });
    const added = await ok<{ confirmed: true; value: { deploymentId: string } }>('deployments.add', draftFor(devnet));
    expect(added).toEqual({ confirmed: true, value: { deploymentId: 'remote-test-exchange' } });
    const [contact, trust] = t.dialogs.shown.slice(-2).map((d) => (d.kind === 'confirm' ? d.request : null));
    expect(contact?.detail).toContain('Deployment: “Remote test exchange” (user text');
    expect(contact?.detail).toContain(`Chain id: ${devnet.chainId}`);
    expect(trust?.title).toBe('Trust this exchange');
    const c = devnet.contracts;
    for (const line of [
      `Chain id: ${devnet.chainId}`,
      `Verifying contract (exchange): ${toChecksumAddress(c.exchange)}`,
      `Domain name: “${devnet.domainName}” (sent by the exchange)`,
      `Deposit ledger (receives deposits): ${toChecksumAddress(c.depositLedger)}`,
      `Settlement token (approved for deposits): ${toChecksumAddress(c.settlementToken)}`,
      `Permit2 (spends the token in permit deposits): ${toChecksumAddress(c.permit2)}`,
    ]) {
      expect(trust?.detail).toContain(line);
    }
    const s = t.settings.getSettings();
    expect(s.selectedDeploymentId).toBe('remote-test-exchange');
    expect(s.pins['remote-test-exchange']).toMatchObject({
      chainId: devnet.chainId.toString(),
      domainName: devnet.domainName,
      spenders: { depositLedger: c.depositLedger, settlementToken: c.settlementToken, permit2: c.permit2 },
    });
    await vi.waitFor(
      async () =>
        expect(await ok('app.connection')).toMatchObject({
          deploymentId: 'remote-test-exchange',
          devnet: false,
          pin: { kind: 'pinned' },
        }),
      wait,
    );
    expect(await err('deployments.add', draftFor(devnet, 'Twin'))).toMatchObject({ code: 'deployments.duplicate' });
  });

  it('holds the first pin of a deployment it never confirmed until a person accepts it', async () => {
    // A deployment written by an older version, without main's dialog: not contacted at all until confirmed.
    const s = t.settings.getSettings();
    const unseen = { id: 'unseen', ...draftFor(devnet, 'Unseen'), httpUrl: `${stub.url}/unseen` };
    const legacy = {
      id: 'legacy',
      ...draftFor(devnet, 'Legacy'),
      httpUrl: `${devnet.httpUrl}/`,
      markets: [{ assetId, symbol: 'BTC' }],
    };
    const before = stub.requests.length;
    t.settings.updateSettings({
      deployments: [...s.deployments, unseen, legacy],
      selectedDeploymentId: 'unseen',
      confirmations: { ...s.confirmations, orders: false },
    });
    expect(await err('markets.list')).toEqual({
      code: 'deployments.unconfirmed',
      message:
        'Unseen was saved without your confirmation, so the app has not contacted it: confirm it in Settings → Deployments first.',
    });
    expect(await err('deployments.inspectMarket', { deploymentId: 'unseen', assetId })).toMatchObject({
      code: 'deployments.unconfirmed',
    });
    expect(await ok('app.connection')).toMatchObject({ deploymentId: 'unseen', pin: { kind: 'unpinned' }, feeds: [] });
    expect(stub.requests.length).toBe(before);

    // Confirming it (select, main's dialog) is what lets the app contact it; the server's answer is then held, signing refused.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.select', { id: 'legacy' })).toMatchObject({ confirmed: true });
    expect(lastConfirm()).toMatchObject({
      title: 'Confirm exchange',
      detail: expect.stringContaining('the app has not contacted it yet') as string,
    });
    expect(t.settings.getSettings().deployments.find((d) => d.id === 'legacy')?.confirmedAt).toBeDefined();
    await vi.waitFor(
      async () =>
        expect(await ok('app.connection')).toMatchObject({ deploymentId: 'legacy', pin: { kind: 'unconfirmed' } }),
      wait,
    );
    const key = await ok<{ address: string }>('keys.importPrivateKey', {
      privateKey: devnet.accounts[0]!.privateKey,
      label: 'alice',
    });
    await ok('account.select', { master: key.address, agent: null, tradeAs: 'master' });
    const epoch = await vi.waitFor(async () => {
      const [m] = await ok<{ epoch: string }[]>('markets.list');
      expect(m).toBeDefined();
      return m!.epoch;
    }, wait);
    expect(
      await err('orders.place', {
        assetId,
        epoch,
        side: 'buy',
        price: '10',
        size: '1',
        timeInForce: 'GTC',
        signAs: 'master',
      }),
    ).toMatchObject({
      code: 'deployments.pin_unconfirmed',
      message: 'Nothing is signed for "Legacy" until you confirm its signing domain and token contracts.',
    });
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.acceptPin')).toEqual({ confirmed: false });
    expect(t.pinning.pinFor('legacy')).toBeNull();
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.acceptPin')).toMatchObject({
      confirmed: true,
      value: { kind: 'pinned', domainName: devnet.domainName },
    });
    expect(lastConfirm()?.title).toBe('Trust this exchange');
    expect(t.pinning.pinFor('legacy')?.spenders?.permit2).toBe(devnet.contracts.permit2);
  });

  it('selects and removes only after a yes', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.select', { id: 'remote-test-exchange' })).toEqual({ confirmed: false });
    expect(t.settings.getSettings().selectedDeploymentId).toBe('legacy');
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.select', { id: 'remote-test-exchange' })).toMatchObject({ confirmed: true });
    t.dialogs.answer({ kind: 'confirm', yes: true }, { kind: 'confirm', yes: true });
    expect(await ok('deployments.remove', { id: 'legacy' })).toEqual({ confirmed: true, value: null });
    expect(await ok('deployments.remove', { id: 'unseen' })).toEqual({ confirmed: true, value: null });
    expect(t.settings.getSettings().deployments.map((d) => d.id)).toEqual(['remote-test-exchange']);
    expect(t.pinning.pinFor('legacy')).toBeNull();
  });

  it("edits after main's dialogs: a rename asks once, new addresses ask before contact and re-check the chain", async () => {
    const id = 'remote-test-exchange';
    const d = t.settings.getSettings().deployments.find((x) => x.id === id)!;
    const draft = draftFor(devnet, d.name);
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.edit', { id, ...draft, name: 'Renamed' })).toEqual({
      confirmed: true,
      value: { deploymentId: id },
    });
    expect(lastConfirm()).toMatchObject({
      title: 'Rename deployment',
      detail: expect.stringContaining('After: “Renamed” (user text') as string,
    });
    expect(t.settings.getSettings().deployments.find((x) => x.id === id)).toMatchObject({
      name: 'Renamed',
      confirmedAt: d.confirmedAt,
    });

    // Another base URL of the same exchange: asked before contact; the same facts need no second dialog.
    const shown = t.dialogs.shown.length;
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(
      await ok('deployments.edit', { id, ...draft, name: 'Renamed', httpUrl: `${devnet.httpUrl}/` }),
    ).toMatchObject({ confirmed: true });
    expect(t.dialogs.shown.slice(shown).map((x) => (x.kind === 'confirm' ? x.request.title : x.kind))).toEqual([
      'Change exchange addresses',
    ]);
    expect(t.settings.getSettings().deployments.find((x) => x.id === id)?.httpUrl).toBe(`${devnet.httpUrl}/`);

    // Pointed at an exchange on another chain: refused after the first dialog, nothing changed.
    stub.chainId = '999';
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await err('deployments.edit', { id, ...draft, name: 'Renamed', httpUrl: stub.url })).toMatchObject({
      code: 'deployments.chain_mismatch',
    });
    expect(t.settings.getSettings().deployments.find((x) => x.id === id)?.httpUrl).toBe(`${devnet.httpUrl}/`);
    expect(await err('deployments.edit', { id: 'nope', ...draft })).toMatchObject({ code: 'deployments.unknown' });
  });

  it('stops signing when a pinned deployment starts answering for another chain', async () => {
    stub.chainId = '999';
    t.settings.updateSettings({
      deployments: [
        ...t.settings.getSettings().deployments,
        { id: 'liar', ...draftFor(devnet, 'Liar'), httpUrl: stub.url, confirmedAt: new Date().toISOString() },
      ],
    });
    t.pinning.acceptPin('liar', factsOf(t.pinning.pinFor('remote-test-exchange')!));
    t.settings.updateSettings({ selectedDeploymentId: 'liar' });
    await vi.waitFor(
      () =>
        expect(() => t.pinning.assertSigningAllowed('liar')).toThrow(
          /serves chain 999, but this deployment is set to chain 31337: nothing was pinned and nothing will be signed/,
        ),
      wait,
    );
    const view = await ok<{ feeds: { feed: string; reason: string }[] }>('app.connection');
    expect(view.feeds.find((f) => f.feed === 'http')?.reason).toMatch(/serves chain 999/);
    expect(t.pinning.pinFor('liar')?.chainId).toBe('31337');
    // Removing the selected deployment selects none: switching to another takes its own yes.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.remove', { id: 'liar' })).toEqual({ confirmed: true, value: null });
    expect(t.settings.getSettings().selectedDeploymentId).toBe('');
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.select', { id: 'remote-test-exchange' })).toMatchObject({ confirmed: true });
  });
});

describe('the built-in devnet', () => {
  it("is pinned from its launcher's facts without a dialog, and waits for a person when the server disagrees with them", async () => {
    const c = devnet.contracts;
    const launcherFacts = {
      chainId: devnet.chainId.toString(),
      verifyingContract: c.exchange,
      domainName: devnet.domainName,
      spenders: { depositLedger: c.depositLedger, settlementToken: c.settlementToken, permit2: c.permit2 },
    };
    for (const [facts, expected] of [
      [launcherFacts, 'pinned'],
      [
        {
          ...launcherFacts,
          spenders: { ...launcherFacts.spenders, permit2: '0x00000000000000000000000000000000000000aa' },
        },
        'unconfirmed',
      ],
    ] as const) {
      const core = await createTestCore({
        defaultDeployments: [devnetDeploymentAt(devnet)],
        trading: {
          markets: devnetMarkets([]),
          pollMs: 250,
          healthMs: 1000,
          attestedFacts: (d) => (d.builtIn === 'devnet' ? facts : null),
        },
      });
      try {
        await vi.waitFor(async () => {
          const view = await core.core.invoke('app.connection', []);
          expect(view).toMatchObject({ ok: true, value: { deploymentId: 'devnet', pin: { kind: expected } } });
        }, wait);
        expect(core.dialogs.shown).toEqual([]);
      } finally {
        core.close();
      }
    }
  });
});

describe('the market manager', () => {
  const id = 'remote-test-exchange';

  it('decodes a registered asset id, sees its oracle price, and adds it after a yes', async () => {
    const seen = await ok<Record<string, unknown>>('deployments.inspectMarket', {
      deploymentId: id,
      assetId: ` ${assetId} `,
    });
    const f = unpackAssetId(BigInt(assetId));
    expect(seen).toMatchObject({
      assetId,
      symbolId: '1',
      marketType: '1',
      periodSeconds: 300,
      timeframe: '5m',
      startTime: Number(f.startTime),
      registered: true,
      oracle: { kind: 'price' },
    });
    expect(seen['sentence']).toBe(
      'The exchange lists this 5m up/down market on symbol 1, and the oracle has a price for it.',
    );

    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.addMarket', { deploymentId: id, assetId, symbol: 'BTC 5m' })).toEqual({
      confirmed: false,
    });
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await ok('deployments.addMarket', { deploymentId: id, assetId, symbol: 'BTC 5m' })).toEqual({
      confirmed: true,
      value: [{ assetId, symbol: 'BTC 5m' }],
    });
    expect(lastConfirm()?.detail).toContain('Name: “BTC 5m” (user text');
    await vi.waitFor(
      async () => expect((await ok<{ symbol: string }[]>('markets.list')).map((m) => m.symbol)).toEqual(['BTC 5m']),
      wait,
    );
    expect(await err('deployments.addMarket', { deploymentId: id, assetId, symbol: 'again' })).toMatchObject({
      code: 'markets.duplicate',
    });
  });

  it('says when an asset id is not registered or its symbol has no oracle price, and does not add it', async () => {
    const f = unpackAssetId(BigInt(assetId));
    const other = packAssetId({ ...f, id: 77n, startTime: f.startTime + 1n });
    const seen = await ok<Record<string, unknown>>('deployments.inspectMarket', {
      deploymentId: id,
      assetId: other.toString(),
    });
    expect(seen).toMatchObject({ registered: false, symbolId: '77', oracle: { kind: 'none' } });
    expect(seen['sentence']).toMatch(
      /^The exchange does not list this asset id, so orders for it would be refused\. The oracle feed (does not carry|sent no price for) symbol 77/,
    );
    expect(
      await err('deployments.addMarket', { deploymentId: id, assetId: other.toString(), symbol: 'X' }),
    ).toMatchObject({ code: 'markets.not_registered' });
  });

  it('checks one asset id at a time, however often the window asks', async () => {
    const calls = [1, 2, 3].map(() => t.core.invoke('deployments.inspectMarket', [{ deploymentId: id, assetId }]));
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    for (const o of outcomes.filter((x) => !x.ok))
      expect(o).toMatchObject({ ok: false, error: { code: 'markets.busy' } });
  });

  it('refuses a malformed id with a sentence, before asking the exchange', async () => {
    expect(await err('deployments.inspectMarket', { deploymentId: id, assetId: '12abc' })).toMatchObject({
      code: 'markets.malformed_asset_id',
      message: expect.stringMatching(/decimal digits only/) as string,
    });
    expect(await err('deployments.inspectMarket', { deploymentId: id, assetId: '../../admin' })).toMatchObject({
      code: 'markets.malformed_asset_id',
    });
  });

  it('renames after a yes, reorders and removes', async () => {
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const second = packAssetId({ ...unpackAssetId(BigInt(assetId)) }).toString();
    expect(second).toBe(assetId);
    expect(await ok('deployments.renameMarket', { deploymentId: id, assetId, symbol: 'BTC' })).toEqual({
      confirmed: true,
      value: [{ assetId, symbol: 'BTC' }],
    });
    // Another list entry to move around (written directly: it needs no exchange for reordering).
    const d = t.settings.getSettings().deployments.find((x) => x.id === id)!;
    t.settings.updateSettings({
      deployments: [{ ...d, markets: [...(d.markets ?? []), { assetId: '1', symbol: 'ONE' }] }],
    });
    expect(await ok('deployments.moveMarket', { deploymentId: id, assetId: '1', to: 0 })).toEqual([
      { assetId: '1', symbol: 'ONE' },
      { assetId, symbol: 'BTC' },
    ]);
    expect(await ok('deployments.removeMarket', { deploymentId: id, assetId: '1' })).toEqual([
      { assetId, symbol: 'BTC' },
    ]);
    expect(await err('deployments.removeMarket', { deploymentId: id, assetId: '1' })).toMatchObject({
      code: 'markets.unknown',
    });
  });
});

// Last: a discovery lets a connect with the same addresses skip its "may I contact" dialog, which
// would change what the tests above count.
describe("the connect form's discovery", () => {
  it("looks an exchange up from its base URL and chain node: nothing contacted before main's yes, then what each said", async () => {
    const before = t.settings.getSettings();
    stub.requests.length = 0;
    t.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await ok('deployments.discover', { httpUrl: stub.url, rpcUrl: devnet.rpcUrl })).toEqual({
      confirmed: false,
    });
    expect(stub.requests).toEqual([]);
    expect(lastConfirm()?.title).toBe('Look up an exchange');
    // The stub has no feeds and serves another chain than the node: refused with the reason, nothing found.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await err('deployments.discover', { httpUrl: stub.url, rpcUrl: devnet.rpcUrl })).toMatchObject({
      code: 'deployments.chain_mismatch',
    });
    // The devnet: the node's chain id, held to the exchange's configuration, and both feeds answering.
    t.dialogs.answer({ kind: 'confirm', yes: true });
    const found = await ok<{
      confirmed: true;
      value: { draft: Record<string, string>; facts: { what: string; found: boolean }[] };
    }>('deployments.discover', { httpUrl: devnet.httpUrl, rpcUrl: devnet.rpcUrl });
    expect(found.value.draft).toEqual({ ...draftFor(devnet), name: new URL(devnet.httpUrl).host });
    expect(found.value.facts.map((f) => [f.what, f.found])).toEqual([
      ['Chain id', true],
      ['Exchange contract', true],
      ['Signing domain', true],
      ['Market feed', true],
      ['Oracle feed', true],
    ]);
    // A discovery saves and trusts nothing.
    expect(t.settings.getSettings()).toEqual(before);
  });
});
