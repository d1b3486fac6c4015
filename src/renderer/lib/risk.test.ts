import { get } from 'svelte/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent, RiskStatus } from '../../shared/bridge';
import { DEFAULT_RISK_LIMITS, defaultSettings, type Settings } from '../../shared/settings-schema';
import { BridgeCallError, type BridgeClient } from './bridge';
import { noticeLog } from './notices';
import { riskStatus, saveRiskLimits, watchRisk } from './risk';
import { settings, startTerminal } from './terminal';
import { orderRefusal, placeOrder, ticket, ticketFor } from './trading';

const STATUS: RiskStatus = {
  limits: DEFAULT_RISK_LIMITS,
  account: '0x1111111111111111111111111111111111111111',
  day: '2026-11-26',
  startEquity: '1000000000',
  lossToday: '12400000',
  lossLimit: '100000000',
  openWorst: null,
  spent: false,
  ordersLastMinute: 3,
  note: null,
};

const BAND =
  'Refused: 99¢ is 49.0¢ above fair value 50.0¢; your band is 15¢. Orders that reduce a position still go, and this sentence is long enough to be clipped in a strip.';

/** A bridge that answers the calls these tests make and lets them send events. */
function fakeBridge(answers: Partial<Record<string, (args: unknown[]) => unknown>>) {
  const calls: string[] = [];
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    call: (method: string, ...args: unknown[]) => {
      calls.push(method);
      const answer = answers[method];
      if (!answer)
        return Promise.reject(new BridgeCallError({ code: 'test.unanswered', message: 'Not in this test.' }));
      return new Promise((resolve) => resolve(answer(args)));
    },
    on: (event: string, handler: (p: unknown) => void) => {
      const set = handlers.get(event) ?? new Set();
      set.add(handler);
      handlers.set(event, set);
      return () => set.delete(handler);
    },
  };
  return {
    client: client as unknown as BridgeClient,
    calls,
    count: (method: string) => calls.filter((m) => m === method).length,
    emit: (event: BridgeEvent, payload: unknown = {}) => handlers.get(event)?.forEach((h) => h(payload)),
    listeners: (event: BridgeEvent) => handlers.get(event)?.size ?? 0,
  };
}

let stopTerminal: (() => void) | null = null;

beforeEach(() => {
  vi.useFakeTimers();
  riskStatus.set(null);
  orderRefusal.set(null);
  noticeLog.set([]);
});
afterEach(() => {
  stopTerminal?.();
  stopTerminal = null;
  vi.useRealTimers();
});

describe('the loss budget in the window', () => {
  it('is read when shown, then follows main’s pushed figure at once; not after the last viewer goes', async () => {
    const bridge = fakeBridge({ 'risk.status': () => STATUS });
    stopTerminal = startTerminal(bridge.client);
    const stop = watchRisk();
    expect(bridge.count('risk.status')).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(get(riskStatus)).toEqual(STATUS);

    // A busy account: 30 account updates read nothing; main's own figure arrives as it changes.
    for (let i = 0; i < 30; i++) {
      bridge.emit('account');
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(bridge.count('risk.status')).toBe(1);
    const pushed = { ...STATUS, lossToday: '3080000' };
    bridge.emit('risk', pushed);
    expect(get(riskStatus)).toEqual(pushed);

    // A second viewer shares it; when the last one goes, main's pushes are not followed.
    const stopOther = watchRisk();
    stop();
    await vi.advanceTimersByTimeAsync(1000);
    stopOther();
    stopOther();
    expect(bridge.listeners('risk')).toBe(0);
    const reads = bridge.count('risk.status');
    bridge.emit('account');
    await vi.advanceTimersByTimeAsync(5000);
    expect(bridge.count('risk.status')).toBe(reads);
  });
});

describe('an order main does not send', () => {
  it('keeps its code and full sentence for the ticket, and the ticket keeps what was typed', async () => {
    const bridge = fakeBridge({
      'risk.status': () => STATUS,
      'orders.place': () => {
        throw new BridgeCallError({ code: 'risk.price_band', message: BAND });
      },
    });
    stopTerminal = startTerminal(bridge.client);
    const stop = watchRisk();
    await vi.advanceTimersByTimeAsync(1000);
    const draft = {
      side: 'buy' as const,
      price: '99',
      size: '40',
      timeInForce: 'GTC' as const,
      signAs: 'master' as const,
    };
    ticket.set(draft);
    const reads = bridge.count('risk.status');

    expect(await placeOrder(ticketFor({ assetId: '7', epoch: '3' }, draft))).toBe(false);
    expect(get(orderRefusal)).toEqual({ assetId: '7', epoch: '3', code: 'risk.price_band', message: BAND });
    expect(get(ticket)).toEqual(draft);
    expect(get(noticeLog)[0]).toMatchObject({ level: 'error', message: BAND });
    // The budget is read again after the order (within the second the reads are spaced by).
    await vi.advanceTimersByTimeAsync(1000);
    expect(bridge.count('risk.status')).toBe(reads + 1);
    stop();
  });

  it('is forgotten when the next order is sent', async () => {
    let refuse = true;
    const bridge = fakeBridge({
      'orders.place': () => {
        if (refuse) throw new BridgeCallError({ code: 'orders.not_confirmed', message: 'Not confirmed.' });
        return {
          orderId: `0x${'ab'.repeat(32)}`,
          status: 'ACCEPTED',
          reason: '',
          side: 'buy',
          price: '500000',
          filled: '0',
          remaining: '1000000',
          cancelled: '0',
          fillPrice: null,
          fillPriceIsLimit: false,
        };
      },
    });
    stopTerminal = startTerminal(bridge.client);
    const order = ticketFor({ assetId: '7', epoch: '3' }, get(ticket));
    await placeOrder(order);
    expect(get(orderRefusal)?.code).toBe('orders.not_confirmed');
    refuse = false;
    const sent = placeOrder(order);
    expect(get(orderRefusal)).toBeNull();
    expect(await sent).toBe(true);
    expect(get(orderRefusal)).toBeNull();
  });
});

describe('changing a limit', () => {
  it('takes main’s answer: the new settings when saved, nothing when declined in its dialog', async () => {
    const before: Settings = defaultSettings();
    const after: Settings = { ...before, riskLimits: { ...before.riskLimits, priceBandCents: '20' } };
    let answer: unknown = { confirmed: false };
    const bridge = fakeBridge({ 'settings.setRiskLimits': () => answer });
    stopTerminal = startTerminal(bridge.client);
    settings.set(before);

    expect(await saveRiskLimits({ priceBandCents: '20' })).toEqual({ kind: 'declined' });
    expect(get(settings)).toBe(before);
    answer = { confirmed: true, value: after };
    expect(await saveRiskLimits({ priceBandCents: '20' })).toEqual({ kind: 'saved' });
    expect(get(settings)?.riskLimits.priceBandCents).toBe('20');
  });

  it('shows main’s sentence when it refuses', async () => {
    const message = 'Limits not saved: they changed while the dialog was open. Look at them again and retry.';
    const bridge = fakeBridge({
      'settings.setRiskLimits': () => {
        throw new BridgeCallError({ code: 'settings.changed_meanwhile', message });
      },
    });
    stopTerminal = startTerminal(bridge.client);
    expect(await saveRiskLimits({ maxOpenOrders: 60 })).toEqual({ kind: 'failed', message });
  });
});
