// The air-gapped round trip in practice, between two copies of the app (each with its own practice
// exchange, worker doubles here): the online copy watches the practice key of the other by its
// address alone, prepares an order for it, the other signs it in practice (practice's domain is the
// same constant everywhere, so it is pinned on both without a dialog), and the online copy sends it
// to its own practice exchange, where it rests.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appMarkets } from '../../src/main/core/session/market-directory';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import type { AccountView, MarketSummary, PracticeStatus } from '../../src/shared/bridge';
import { coreCalls } from './core-calls';
import { practiceWorkerDouble, type WorkerDouble } from '../practice/worker-double';

const wait = { timeout: 40_000, interval: 200 };
let online: TestCore;
let signer: TestCore;
const doubles: WorkerDouble[] = [];
const on = coreCalls(
  () => online,
  () => [],
);
const off = coreCalls(
  () => signer,
  () => [],
);

async function practiceCore(): Promise<TestCore> {
  const double = practiceWorkerDouble({ bots: 1 });
  doubles.push(double);
  const t = await createTestCore({
    defaultDeployments: [],
    practice: { spawn: double.spawn },
    trading: { markets: appMarkets(null), pollMs: 250, healthMs: 1000 },
  });
  const calls = coreCalls(
    () => t,
    () => [],
  );
  await calls.ok('lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
  await calls.ok('practice.start');
  return t;
}

beforeAll(async () => {
  online = await practiceCore();
  signer = await practiceCore();
}, 90_000);

afterAll(async () => {
  for (const t of [online, signer]) {
    await t?.practice?.host.stop();
    t?.close();
  }
  for (const d of doubles) await d.stopAll();
});

describe('the air-gapped round trip in practice', () => {
  it('watches the other copy’s practice key, has it sign an order, and sends it', async () => {
    const cold = (await off.ok<PracticeStatus>('practice.status')).keys[0]!;
    expect(await on.ok('airgap.watchAdd', { address: cold, label: 'practice cold key' })).toMatchObject({
      address: cold,
    });
    await on.ok('account.select', { master: cold, agent: null, tradeAs: 'master' });
    // Play money for the watched account on this copy's practice exchange (no key needed: it only credits).
    await on.ok('practice.addFunds');
    await vi.waitFor(async () => {
      const v = await on.ok<AccountView>('account.get');
      expect(v.selection.master).toBe(cold);
      expect(v.balance?.available).toBe('1000000000');
    }, wait);
    const market = (await on.ok<MarketSummary[]>('markets.list')).find((m) => m.periodSeconds === 3600)!;
    const prepared = await on.ok<{ id: string; fingerprint: string }>('airgap.prepare', {
      master: cold,
      action: {
        kind: 'order',
        assetId: market.assetId,
        epoch: market.epoch,
        side: 'buy',
        price: '2',
        size: '1',
        timeInForce: 'GTC',
      },
    });
    const { text } = await on.ok<{ text: string }>('airgap.envelopeText', { kind: 'request', id: prepared.id });
    const read = await off.ok<{ kind: string; request: { fingerprint: string; domainPinned: boolean } }>(
      'airgap.receiveText',
      { text, via: 'file' },
    );
    // Practice's domain is pinned on the signing copy too: main pinned the same constants there.
    expect(read.request).toMatchObject({ fingerprint: prepared.fingerprint, domainPinned: true });
    signer.dialogs.answer({ kind: 'confirm', yes: true });
    const signed = await off.ok<{ confirmed: boolean }>('airgap.sign', { id: prepared.id });
    expect(signed.confirmed).toBe(true);
    const confirm = signer.dialogs.shown.filter((d) => d.kind === 'confirm').at(-1);
    expect(confirm?.kind === 'confirm' && confirm.request.title).toMatch(/^Practice · /);
    const response = await off.ok<{ text: string }>('airgap.envelopeText', { kind: 'response', id: prepared.id });
    expect(await on.ok('airgap.receiveText', { text: response.text, via: 'file' })).toMatchObject({
      kind: 'response',
      request: { id: prepared.id, state: 'signed' },
    });
    // Sending is main's dialog on the online copy (order confirmations are on), which says Practice too.
    online.dialogs.answer({ kind: 'confirm', yes: true });
    const sent = await on.ok<{ confirmed: boolean; value: { status: string } }>('airgap.submit', { id: prepared.id });
    expect(sent).toMatchObject({ confirmed: true, value: { status: 'ACCEPTED' } });
    await vi.waitFor(async () => {
      const v = await on.ok<AccountView>('account.get');
      expect(v.openOrders.map((o) => [o.assetId, o.price])).toContainEqual([market.assetId, '20000']);
    }, wait);
  }, 90_000);
});
