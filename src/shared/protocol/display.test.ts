import { describe, expect, it } from 'vitest';
import {
  displayContracts,
  displayDate,
  displayOracle,
  displayPrice,
  displaySignedUsd,
  displaySize,
  displayUsd,
  formatCents,
  roundedDecimal,
} from './display';
import { CENTS_SUFFIX, canonicalDecimal, groupThousands } from './units';

describe('rounded decimals', () => {
  it('rounds half away from zero; a negative that rounds to zero has no sign', () => {
    expect(roundedDecimal(125n, 2, 1)).toBe('1.3');
    expect(roundedDecimal(-125n, 2, 1)).toBe('−1.3');
    expect(roundedDecimal(-4n, 2, 1)).toBe('0.0');
  });

  it('trims and groups on request', () => {
    expect(roundedDecimal(1_234_500_000n, 6, 2, { trim: true, thousands: true })).toBe('1,234.5');
    expect(roundedDecimal(620_000n, 4, 1, { trim: true })).toBe('62');
    expect(groupThousands('1234567')).toBe('1,234,567');
  });
});

describe('prices', () => {
  it('in sentences exactly, in tables to a tenth of a cent', () => {
    expect(formatCents(625_000n)).toBe('62.5¢');
    expect(formatCents(620_000n)).toBe('62¢');
    expect(displayPrice(500_000n)).toBe('50.0¢');
    expect(displayPrice(1_000n)).toBe('0.1¢');
    expect(displayPrice(999_000n)).toBe('99.9¢');
  });

  it('reads a typed price in canonical form', () => {
    expect(canonicalDecimal(' 62.50¢ ', CENTS_SUFFIX)).toBe('62.5');
    expect(canonicalDecimal('10.00')).toBe('10');
    expect(canonicalDecimal('7.', CENTS_SUFFIX)).toBe('7');
    expect(canonicalDecimal('abc')).toBe('abc');
    // As people type it: no leading zero needed.
    expect(canonicalDecimal('.5', CENTS_SUFFIX)).toBe('0.5');
    expect(canonicalDecimal('.50¢', CENTS_SUFFIX)).toBe('0.5');
    expect(canonicalDecimal('.')).toBe('.');
  });
});

describe('sizes and money', () => {
  it('shows contracts to two decimals, grouped, with their unit', () => {
    expect(displaySize(10_250_000n)).toBe('10.25');
    expect(displaySize(1_234_500_000n)).toBe('1,234.5');
    expect(displayContracts(1_000_000n)).toBe('1 contract');
    expect(displayContracts(500_000n)).toBe('0.5 contracts');
  });

  it('shows dollars to the cent, beyond float precision, and P&L with its sign', () => {
    expect(displayUsd(1_234_567_890n)).toBe('$1,234.57');
    expect(displayUsd(-1_000_000n)).toBe('−$1.00');
    expect(displayUsd(90071992547409930000001n)).toBe('$90,071,992,547,409,930.00');
    expect(displaySignedUsd(1_200_000n)).toBe('+$1.20');
    expect(displaySignedUsd(-400_000n)).toBe('−$0.40');
    expect(displaySignedUsd(4n)).toBe('$0.00');
  });

  it('shows oracle prices to the cent from $1 and to 4 decimals below', () => {
    expect(displayOracle(65_282_497_628n)).toBe('$65,282.50');
    expect(displayOracle(500_000n)).toBe('$0.5000');
  });
});

describe('dates', () => {
  it('reads an ISO date as day, month word and year (UTC); other text as it is', () => {
    expect(displayDate('2026-11-20T10:00:00.000Z')).toBe('20 Nov 2026');
    expect(displayDate('2026-01-05')).toBe('5 Jan 2026');
    expect(displayDate('2026-12-31T23:30:00-05:00')).toBe('1 Jan 2027');
    expect(displayDate('soon')).toBe('soon');
  });
});
