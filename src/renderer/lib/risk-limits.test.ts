import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RiskStatus } from '../../shared/bridge';
import { DEFAULT_RISK_LIMITS, RiskLimitsSchema, type RiskLimits } from '../../shared/settings-schema';
import {
  budgetView,
  changeKind,
  fieldText,
  inForceText,
  LIMIT_ROWS,
  notInForce,
  parseLimitInput,
  throttle,
  type LimitKey,
} from './risk-limits';

const limits: RiskLimits = { ...DEFAULT_RISK_LIMITS };

function accepted(key: LimitKey, typed: string): Partial<RiskLimits> {
  const r = parseLimitInput(key, typed);
  if (!r.ok) throw new Error(`${key} "${typed}" refused: ${r.message}`);
  return r.change;
}

function refused(key: LimitKey, typed: string): string {
  const r = parseLimitInput(key, typed);
  if (r.ok) throw new Error(`${key} "${typed}" accepted as ${JSON.stringify(r.change)}`);
  return r.message;
}

describe('typed limits', () => {
  it('reads each limit as people type it, units and separators included', () => {
    expect(accepted('priceBandCents', ' 12.5¢ ')).toEqual({ priceBandCents: '12.5' });
    expect(accepted('priceBandCents', '07.0')).toEqual({ priceBandCents: '7' });
    expect(accepted('maxOrderCost', '$1,250.50')).toEqual({ maxOrderCost: '1250.5' });
    expect(accepted('maxPositionContracts', '2,000 contracts')).toEqual({ maxPositionContracts: '2000' });
    expect(accepted('maxOpenOrders', '25 orders')).toEqual({ maxOpenOrders: 25 });
    expect(accepted('maxOrdersPerMinute', '60')).toEqual({ maxOrdersPerMinute: 60 });
    expect(accepted('dailyLossPercent', '0.1%')).toEqual({ dailyLossPercent: 0.1 });
    expect(accepted('dailyLossPercent', '2.50')).toEqual({ dailyLossPercent: 2.5 });
    expect(accepted('dailyLossAmount', '250')).toEqual({ dailyLossAmount: '250' });
    expect(accepted('dailyLossAmount', ' $1,250.50 a day ')).toEqual({ dailyLossAmount: '1250.5' });
    // An empty field: no fixed amount, the percentage applies.
    expect(accepted('dailyLossAmount', '')).toEqual({ dailyLossAmount: '' });
    expect(accepted('dailyLossAmount', '   ')).toEqual({ dailyLossAmount: '' });
  });

  it('sends only what main’s schema accepts', () => {
    const samples: [LimitKey, string][] = [
      ['priceBandCents', '0.1'],
      ['priceBandCents', '99.9'],
      ['maxOrderCost', '999999999.99'],
      ['maxOrderCost', '0.01'],
      ['maxPositionContracts', '0.01'],
      ['maxOpenOrders', '1000'],
      ['maxOrdersPerMinute', '6000'],
      ['dailyLossPercent', '100'],
      ['dailyLossAmount', '0.01'],
      ['dailyLossAmount', '$999,999,999.99'],
      ['dailyLossAmount', ''],
    ];
    for (const [key, typed] of samples) {
      expect(RiskLimitsSchema.safeParse({ ...limits, ...accepted(key, typed) }).success, `${key} ${typed}`).toBe(true);
    }
  });

  it('refuses what is not a limit with a sentence, never a schema path', () => {
    const messages = [
      refused('priceBandCents', 'abc'),
      refused('priceBandCents', '0'),
      refused('priceBandCents', '100'),
      refused('priceBandCents', '2.55'),
      refused('maxOrderCost', '0'),
      refused('maxOrderCost', '1000000000'),
      refused('maxOrderCost', '1.005'),
      refused('maxOrderCost', '-5'),
      refused('maxPositionContracts', '0.001'),
      refused('maxPositionContracts', '2000000000'),
      refused('maxOpenOrders', '2.5'),
      refused('maxOpenOrders', '0'),
      refused('maxOpenOrders', '1001'),
      refused('maxOrdersPerMinute', '99999999999999999999'),
      refused('dailyLossPercent', '0.09'),
      refused('dailyLossPercent', '101'),
      refused('dailyLossPercent', ''),
      refused('dailyLossAmount', '0'),
      refused('dailyLossAmount', '$0.00'),
      refused('dailyLossAmount', '1.005'),
      refused('dailyLossAmount', '-5'),
      refused('dailyLossAmount', '10%'),
      refused('dailyLossAmount', '1000000000'),
    ];
    for (const m of messages) {
      expect(m).toMatch(/^[A-Z].*\.$/);
      expect(m).not.toMatch(/priceBand|maxOrder|dailyLoss|argument|schema|\[/);
    }
    expect(refused('priceBandCents', '100')).toBe('The band must be between 0.1¢ and 99.9¢.');
    expect(refused('maxOpenOrders', '1001')).toBe('Type a whole number from 1 to 1,000.');
    expect(refused('dailyLossPercent', '0.09')).toBe('The daily loss limit must be between 0.1% and 100%.');
    expect(refused('dailyLossAmount', '0')).toBe(
      'A fixed daily loss limit must be more than $0; leave the field empty to use the percentage.',
    );
  });

  it('tells a stricter change (saved at once) from a looser one (main’s dialog) in exact units', () => {
    expect(changeKind('priceBandCents', limits, { priceBandCents: '14.9' })).toBe('stricter');
    expect(changeKind('priceBandCents', limits, { priceBandCents: '15.0' })).toBe('same');
    expect(changeKind('priceBandCents', limits, { priceBandCents: '15.1' })).toBe('looser');
    expect(changeKind('maxOrderCost', limits, { maxOrderCost: '500.01' })).toBe('looser');
    expect(changeKind('maxPositionContracts', limits, { maxPositionContracts: '1999.99' })).toBe('stricter');
    expect(changeKind('maxOpenOrders', limits, { maxOpenOrders: 51 })).toBe('looser');
    expect(changeKind('maxOrdersPerMinute', limits, { maxOrdersPerMinute: 120 })).toBe('same');
    expect(changeKind('dailyLossPercent', limits, { dailyLossPercent: 0.1 })).toBe('stricter');
  });

  it('treats a fixed daily loss amount set in place of the percentage, grown or cleared as looser; shrunk as stricter', () => {
    const fixed: RiskLimits = { ...limits, dailyLossAmount: '250' };
    expect(changeKind('dailyLossAmount', limits, { dailyLossAmount: '5' })).toBe('looser');
    expect(changeKind('dailyLossAmount', limits, { dailyLossAmount: '' })).toBe('same');
    expect(changeKind('dailyLossAmount', fixed, { dailyLossAmount: '250.01' })).toBe('looser');
    expect(changeKind('dailyLossAmount', fixed, { dailyLossAmount: '' })).toBe('looser');
    expect(changeKind('dailyLossAmount', fixed, { dailyLossAmount: '249.99' })).toBe('stricter');
    expect(changeKind('dailyLossAmount', fixed, { dailyLossAmount: '250.00' })).toBe('same');
    expect(fieldText('dailyLossAmount', limits)).toBe('');
    expect(fieldText('dailyLossAmount', fixed)).toBe('250');
    expect(inForceText('dailyLossAmount', fixed)).toBe('$250.00 a day');
    expect(notInForce('dailyLossPercent', fixed)).toBe('Not in force now: the fixed amount of $250.00 a day applies.');
    expect(notInForce('dailyLossPercent', limits)).toBeNull();
    expect(notInForce('dailyLossAmount', fixed)).toBeNull();
  });

  it('names every limit once, with the value in force in words', () => {
    expect(LIMIT_ROWS.map((r) => r.key).sort()).toEqual(Object.keys(DEFAULT_RISK_LIMITS).sort());
    expect(LIMIT_ROWS.map((r) => inForceText(r.key, limits))).toEqual([
      '15¢',
      '$500.00',
      '2,000 contracts',
      '50 orders',
      '120 orders a minute',
      '10%',
      'the percentage (no fixed amount)',
    ]);
    expect(fieldText('dailyLossPercent', { ...limits, dailyLossPercent: 0.1 })).toBe('0.1');
  });
});

function status(over: Partial<RiskStatus>): RiskStatus {
  return {
    limits,
    account: '0x1111111111111111111111111111111111111111',
    day: '2026-11-26',
    startEquity: '1000000000',
    lossToday: '12400000',
    lossLimit: '100000000',
    openWorst: null,
    spent: false,
    ordersLastMinute: 0,
    note: null,
    ...over,
  };
}

describe('today’s loss budget', () => {
  it('reads as used of limit, with the share for the bar', () => {
    expect(budgetView(status({}))).toEqual({
      known: true,
      used: '$12.40',
      limit: '$100.00',
      summary: '$12.40 of $100.00 used today',
      fraction: 0.124,
      held: null,
      heldFraction: 0,
      level: 'ok',
      note: null,
    });
    // What open orders could still lose is shown beside it, and the bar never passes full.
    expect(budgetView(status({ openWorst: '40000000' }))).toMatchObject({ held: '$40.00', heldFraction: 0.4 });
    expect(budgetView(status({ lossToday: '80000000', openWorst: '40000000' })).heldFraction).toBe(0.2);
    expect(budgetView(status({ lossToday: '80000000' })).level).toBe('near');
  });

  it('is spent when main says so, the bar full even past the limit', () => {
    const v = budgetView(status({ lossToday: '130000000', spent: true }));
    expect(v.level).toBe('spent');
    expect(v.fraction).toBe(1);
    expect(v.summary).toBe('$130.00 of $100.00 used today');
    // A day that started with nothing to lose has a limit of $0: spent from the start.
    expect(budgetView(status({ lossToday: '0', lossLimit: '0', spent: true })).fraction).toBe(1);
  });

  it('says why when main cannot measure it', () => {
    const note = 'Choose an account on a connected exchange to see today’s budget.';
    const v = budgetView(status({ account: null, lossToday: null, lossLimit: null, startEquity: null, note }));
    expect(v).toMatchObject({ known: false, used: '—', note, level: 'ok' });
    expect(budgetView(null).known).toBe(false);
  });
});

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first request at once and folds a burst into one run at the end of the interval', () => {
    const run = vi.fn();
    const t = throttle(run, 1000);
    t.request();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(40);
      t.request();
    }
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000 - 800);
    expect(run).toHaveBeenCalledTimes(2);
    // Quiet afterwards: nothing more runs; the next request after the interval runs at once.
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    t.request();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('never runs twice within one interval, and a cancelled run does not happen', () => {
    const at: number[] = [];
    const t = throttle(() => at.push(Date.now()), 1000);
    for (let i = 0; i < 100; i++) {
      t.request();
      vi.advanceTimersByTime(70);
    }
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(at.length).toBeGreaterThanOrEqual(7);
    t.request();
    t.cancel();
    const runs = at.length;
    vi.advanceTimersByTime(2000);
    expect(at.length).toBe(runs);
  });

  it('waits at most one interval after the wall clock is set back', () => {
    let clock = 100_000;
    const run = vi.fn();
    const t = throttle(run, 1000, {
      now: () => clock,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
    t.request();
    clock -= 3_600_000;
    t.request();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
