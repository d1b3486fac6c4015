import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../store/key-value-store';
import { LossBudget, lossLimit, utcDay } from './loss-budget';

const ACCOUNT = '0x' + 'ab'.repeat(20);
const D = 1_000_000n;

describe('LossBudget', () => {
  it('takes the day’s baseline at first sight, measures the fall below it and keeps it across a restart', () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const store = createMemoryStore();
    const budget = new LossBudget(store, () => now);
    expect(budget.status(ACCOUNT, 1000n * D, 1000n)).toMatchObject({ day: '2026-11-26', loss: 0n, limit: 100n * D });
    expect(budget.status(ACCOUNT, 960n * D, 1000n).loss).toBe(40n * D);
    expect(budget.status(ACCOUNT, 1010n * D, 1000n).loss).toBe(0n);
    const again = new LossBudget(store, () => now);
    expect(again.status(ACCOUNT, 950n * D, 1000n)).toMatchObject({ startEquity: 1000n * D, loss: 50n * D });
    now = Date.parse('2026-11-27T00:00:01Z');
    expect(again.status(ACCOUNT, 950n * D, 1000n)).toMatchObject({ day: '2026-11-27', loss: 0n, limit: 95n * D });
  });

  it('moves the baseline with deposits and withdrawals made through the app', () => {
    const budget = new LossBudget(createMemoryStore(), () => Date.parse('2026-11-26T10:00:00Z'));
    budget.status(ACCOUNT, 1000n * D, 1000n);
    budget.noteTransfer(ACCOUNT, -300n * D);
    expect(budget.status(ACCOUNT, 700n * D, 1000n)).toMatchObject({ loss: 0n, limit: 70n * D });
    budget.noteTransfer(ACCOUNT, 500n * D);
    expect(budget.status(ACCOUNT, 1150n * D, 1000n).loss).toBe(50n * D);
  });

  it('answers a repeated question from its last answer only while nothing it was made of has changed', () => {
    let now = Date.parse('2026-11-26T23:59:59Z');
    const budget = new LossBudget(createMemoryStore(), () => now);
    expect(budget.status(ACCOUNT, 1000n * D, 1000n)).toMatchObject({ loss: 0n, limit: 100n * D });
    expect(budget.status(ACCOUNT, 1000n * D, 1000n)).toMatchObject({ loss: 0n, limit: 100n * D });
    // Same equity, but money went out through the app: the baseline moved.
    budget.noteTransfer(ACCOUNT, -200n * D);
    expect(budget.status(ACCOUNT, 1000n * D, 1000n)).toMatchObject({ transfers: -200n * D, limit: 80n * D });
    expect(budget.status(ACCOUNT, 1000n * D, 500n).limit).toBe(40n * D);
    // The same figures on the next day start the next day's record.
    now += 2_000;
    expect(budget.status(ACCOUNT, 900n * D, 500n)).toMatchObject({ day: '2026-11-27', startEquity: 900n * D });
    now += 1_000;
    expect(budget.status(ACCOUNT, 900n * D, 500n)).toMatchObject({ day: '2026-11-27', loss: 0n, limit: 45n * D });
    // The same day again, after going back (a clock set back): today's record for that day anew.
    now -= 10_000;
    expect(budget.status(ACCOUNT, 900n * D, 500n).day).toBe('2026-11-26');
  });

  it('gives no budget on a day that started at or below zero, and ignores an edited store', () => {
    expect(lossLimit(0n, 1000n)).toBe(0n);
    const store = createMemoryStore({ riskDays: [{ account: 'x', day: 'y', startEquity: 'z', transfers: '0' }] });
    const budget = new LossBudget(store, () => Date.parse('2026-11-26T10:00:00Z'));
    expect(budget.peek(ACCOUNT)).toBeNull();
    expect(budget.status(ACCOUNT, 5n * D, 1000n).startEquity).toBe(5n * D);
    expect(utcDay(Date.parse('2026-11-26T23:59:59.999Z'))).toBe('2026-11-26');
  });
});

describe('LossBudget: money seen arriving, and records that cannot be pushed out', () => {
  const now = () => Date.parse('2026-11-26T10:00:00Z');

  it('moves the baseline with money that arrives while nothing is at risk (a $0 account funded elsewhere)', () => {
    const budget = new LossBudget(createMemoryStore(), now);
    budget.observeFlat(ACCOUNT, 0n, true, 0);
    expect(budget.status(ACCOUNT, 0n, 1000n)).toMatchObject({ loss: 0n, limit: 0n });
    // A deposit made on another machine: the account is flat, no order passed: not profit.
    budget.observeFlat(ACCOUNT, 1000n * D, true, 0);
    expect(budget.status(ACCOUNT, 1000n * D, 1000n)).toMatchObject({ loss: 0n, limit: 100n * D });
    // A loss while trading, then flat again with an order passed in between: the loss stays a loss.
    budget.observeFlat(ACCOUNT, 1000n * D, false, 1);
    budget.observeFlat(ACCOUNT, 960n * D, true, 1);
    budget.observeFlat(ACCOUNT, 960n * D, true, 1);
    expect(budget.status(ACCOUNT, 960n * D, 1000n).loss).toBe(40n * D);
    // Equity that moved between two flat sightings with an order passed between them is not taken as money in.
    budget.observeFlat(ACCOUNT, 950n * D, true, 2);
    expect(budget.status(ACCOUNT, 950n * D, 1000n).loss).toBe(50n * D);
  });

  it('takes a deposit through the app once, whether the balance or the note comes first', () => {
    for (const order of ['note first', 'balance first'] as const) {
      const budget = new LossBudget(createMemoryStore(), now);
      budget.status(ACCOUNT, 100n * D, 1000n);
      budget.observeFlat(ACCOUNT, 100n * D, true, 0);
      if (order === 'note first') {
        budget.noteTransfer(ACCOUNT, 500n * D);
        budget.observeFlat(ACCOUNT, 600n * D, true, 0);
      } else {
        budget.observeFlat(ACCOUNT, 600n * D, true, 0);
        budget.noteTransfer(ACCOUNT, 500n * D);
        budget.observeFlat(ACCOUNT, 600n * D, true, 0);
      }
      expect(budget.status(ACCOUNT, 600n * D, 1000n), order).toMatchObject({ transfers: 500n * D, loss: 0n });
    }
  });

  it('keeps a vault key’s day whatever else is looked at, and stays bounded', () => {
    const store = createMemoryStore();
    const budget = new LossBudget(store, now, { signs: (a) => a === ACCOUNT });
    budget.status(ACCOUNT, 1000n * D, 1000n);
    expect(budget.status(ACCOUNT, 900n * D, 1000n).loss).toBe(100n * D);
    // 200 watched accounts looked at: the key's record stays, the others are capped.
    for (let i = 0; i < 200; i++) budget.status(`0x${i.toString(16).padStart(40, '0')}`, 5n * D, 1000n);
    expect(budget.peek(ACCOUNT)?.startEquity).toBe(1000n * D);
    expect(budget.status(ACCOUNT, 900n * D, 1000n).loss).toBe(100n * D);
    expect((store.get('riskDays') as unknown[]).length).toBe(65);
  });

  it('keeps the day of an account traded from here that is not a vault key (a watch-only master with an agent here)', () => {
    const store = createMemoryStore();
    const budget = new LossBudget(store, now, { signs: () => false });
    budget.status(ACCOUNT, 1000n * D, 1000n);
    budget.noteTraded(ACCOUNT);
    for (let i = 0; i < 200; i++) budget.status(`0x${i.toString(16).padStart(40, '0')}`, 5n * D, 1000n);
    // Across a restart too: the mark is in the store.
    const again = new LossBudget(store, now, { signs: () => false });
    expect(again.status(ACCOUNT, 900n * D, 1000n).loss).toBe(100n * D);
    expect((store.get('riskDays') as unknown[]).length).toBe(65);
  });

  it('says a fixed amount when one is set, whatever the day started at', () => {
    const budget = new LossBudget(createMemoryStore(), now);
    expect(budget.status(ACCOUNT, 0n, 1000n, 250n * D).limit).toBe(250n * D);
    expect(lossLimit(1000n * D, 1000n, 40n * D)).toBe(40n * D);
  });
});
