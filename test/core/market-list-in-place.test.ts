// Issue 27, item 2: editing the market list (reorder, take off, put back) is applied to the running
// session in place: no feed is closed, no "Connected" again, every fair value is there at once, and
// a market put back has its fair value at once (its oracle was followed all along).
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { MarketFeed, OracleFeed } from '../../src/client';
import { fuzzWorld, until, type FuzzWorld } from './loss-fuzz';

let w: FuzzWorld;

beforeAll(async () => {
  w = await fuzzWorld('market-list-');
}, 180_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await w?.close();
});

type Row = { assetId: string; fairPrice: string | null };

it('reordering, removing and adding a market neither restarts the session nor forgets a fair value', async () => {
  const marketClosed = vi.spyOn(MarketFeed.prototype, 'close');
  const oracleClosed = vi.spyOn(OracleFeed.prototype, 'close');
  const notices: string[] = [];
  const off = w.t.core.on('notice', (n) => notices.push(n.message));
  const d = w.t.settings.getSettings().deployments[0]!;
  const eth = w.markets[1]!;
  const id = eth.assetId.toString();
  try {
    const before = await w.ok<Row[]>('markets.list');
    expect(before.every((m) => m.fairPrice !== null)).toBe(true);

    await w.ok('deployments.moveMarket', { deploymentId: d.id, assetId: id, to: 0 });
    const moved = await w.ok<Row[]>('markets.list');
    expect(moved[0]!.assetId).toBe(id);
    expect(moved.every((m) => m.fairPrice !== null)).toBe(true);

    await w.ok('deployments.removeMarket', { deploymentId: d.id, assetId: id });
    const removed = await w.ok<Row[]>('markets.list');
    expect(removed.map((m) => m.assetId)).not.toContain(id);
    expect(removed.every((m) => m.fairPrice !== null)).toBe(true);

    // Moved and taken off: the session's feeds are the same (a restart closes both).
    expect(marketClosed).not.toHaveBeenCalled();
    expect(oracleClosed).not.toHaveBeenCalled();

    // Put back through main's dialog, the person saying yes.
    w.t.dialogs.answer({ kind: 'confirm', yes: true });
    const added = await w.ok<{ confirmed: boolean }>('deployments.addMarket', {
      deploymentId: d.id,
      assetId: id,
      symbol: eth.symbol,
    });
    expect(added.confirmed).toBe(true);
    const back = await w.ok<Row[]>('markets.list');
    // Its fair value at once: the oracle history of its symbol was kept and followed.
    expect(back.find((m) => m.assetId === id)?.fairPrice).not.toBeNull();

    // Still the same session: the market feed was never closed; the one oracle socket closed is the
    // market check's own (addMarket reads the market from the oracle before its dialog).
    expect(marketClosed).not.toHaveBeenCalled();
    expect(oracleClosed.mock.calls.length).toBeLessThanOrEqual(1);
    expect(notices.filter((n) => /^Connected to/.test(n))).toEqual([]);
    // And it still trades: the account is read, and the market put back takes orders again (a buy at
    // 1¢ that nothing fills: off the list, it was refused as not in the market list).
    await until(async () => (await w.ok<{ balance: unknown }>('account.get')).balance !== null);
    const o = await w.t.core.invoke('orders.place', [
      {
        assetId: id,
        epoch: eth.epoch.toString(),
        side: 'buy',
        price: '1',
        size: '1',
        timeInForce: 'IOC',
        signAs: 'master',
      },
    ]);
    expect(o.ok ? 'sent' : o.error.code).not.toBe('orders.unlisted_market');
  } finally {
    off();
  }
}, 120_000);
