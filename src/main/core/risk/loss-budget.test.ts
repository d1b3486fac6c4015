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
