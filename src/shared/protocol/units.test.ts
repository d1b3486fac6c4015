import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vectors } from '../../../test/protocol/vector-helpers';
import {
  MAX_AMOUNT,
  MAX_PRICE,
  MAX_SIZE,
  MIN_PRICE,
  MIN_SIZE,
  PRICE_TICK,
  SIZE_LOT,
  UnitsError,
  buyMargin,
  formatAmount,
  formatDollars,
  formatPrice,
  formatSize,
  parseAmount,
  parsePrice,
  parseSize,
  sellMargin,
} from './index';

const parsers = { price: parsePrice, size: parseSize } as const;

describe('fixture decimal conversions', () => {
  it.each(vectors.decimalConversions.accepted.map((c) => [c.kind, c.human, c] as const))(
    'accepts %s "%s"',
    (_k, _h, c) => {
      const parse = parsers[c.kind as keyof typeof parsers];
      expect(parse(c.human)).toBe(BigInt(c.protocol));
    },
  );
  it.each(vectors.decimalConversions.rejected.map((c) => [c.kind, c.human, c] as const))(
    'rejects %s "%s"',
    (_k, _h, c) => {
      const parse = parsers[c.kind as keyof typeof parsers];
      expect(() => parse(c.human)).toThrow(UnitsError);
    },
  );
});

describe('docs/protocol/units.md examples', () => {
  it('price', () => {
    expect(parsePrice('0.1')).toBe(1_000n);
    expect(parsePrice('50')).toBe(500_000n);
    expect(parsePrice('99.9')).toBe(999_000n);
    for (const bad of ['0', '100', '99.89', '01', '', '.5', '5.', '-1', '+5', '1e1', ' 5', '5 ', '0.0', '62.50']) {
      expect(() => parsePrice(bad), bad).toThrow(UnitsError);
    }
    expect(formatPrice(625_000n)).toBe('62.5');
    expect(formatPrice(70_000n)).toBe('7');
  });

  it('size', () => {
    expect(parseSize('0.01')).toBe(10_000n);
    expect(parseSize('100.25')).toBe(100_250_000n);
    expect(parseSize('1000000000.00')).toBe(10n ** 15n);
    for (const bad of ['0.001', '0', '1000000000.01', '00.5', '1.', 'NaN', '1,5'])
      expect(() => parseSize(bad), bad).toThrow(UnitsError);
  });

  it('amount', () => {
    expect(parseAmount('100')).toBe(100_000_000n);
    expect(parseAmount('100.25')).toBe(100_250_000n);
    expect(parseAmount('0.01')).toBe(10_000n);
    for (const bad of ['0', '0.00', '01', '1.001', '-1', '1000000000.01'])
      expect(() => parseAmount(bad), bad).toThrow(UnitsError);
    expect(() => parseAmount(100 as unknown as string)).toThrow(UnitsError);
  });

  it('errors carry a code and say what is allowed', () => {
    try {
      parsePrice('62.55');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnitsError);
      expect((e as UnitsError).code).toBe('INVALID_PRICE');
      expect((e as UnitsError).message).toContain(
        'Price must be between 0.1 and 99.9 cents with at most one decimal place.',
      );
    }
    expect(() => parseSize('x')).toThrow(/at most two decimal places/);
  });

  it('margins', () => {
    expect(buyMargin(25_000_000n, 625_000n)).toBe(15_625_000n);
    expect(sellMargin(25_000_000n, 625_000n)).toBe(9_375_000n);
    expect(buyMargin(1n, 1n)).toBe(1n); // rounds up, never under-reserves
  });
});

describe('round trips', () => {
  const onTick = fc.bigInt({ min: MIN_PRICE / PRICE_TICK, max: MAX_PRICE / PRICE_TICK }).map((t) => t * PRICE_TICK);
  const onLot = fc.bigInt({ min: MIN_SIZE / SIZE_LOT, max: MAX_SIZE / SIZE_LOT }).map((l) => l * SIZE_LOT);
  const amount = fc.bigInt({ min: 1n, max: MAX_AMOUNT / SIZE_LOT }).map((l) => l * SIZE_LOT);

  it('parse(format(v)) == v for every valid protocol value', () => {
    fc.assert(fc.property(onTick, (v) => parsePrice(formatPrice(v)) === v));
    fc.assert(fc.property(onLot, (v) => parseSize(formatSize(v)) === v));
    fc.assert(fc.property(amount, (v) => parseAmount(formatAmount(v)) === v));
  });

  it('format(parse(x)) is canonical and stable for any accepted input', () => {
    const sizeText = fc
      .tuple(fc.bigInt({ min: 0n, max: 1_000_000_000n }), fc.constantFrom('', '.0', '.5', '.50', '.05', '.99', '.1'))
      .map(([i, f]) => `${i}${f}`);
    fc.assert(
      fc.property(sizeText, (x) => {
        let v: bigint;
        try {
          v = parseSize(x);
        } catch {
          return;
        }
        const s = formatSize(v);
        expect(s).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
        expect(formatSize(parseSize(s))).toBe(s);
      }),
    );
  });

  it('buy + sell margin equals size for on-lot, on-tick orders', () => {
    fc.assert(fc.property(onLot, onTick, (s, p) => buyMargin(s, p) + sellMargin(s, p) === s));
  });
});

describe('formatDollars', () => {
  it('shows exchange dollars with their unit, two decimals at least and never rounded', () => {
    expect(formatDollars(0n)).toBe('$0.00');
    expect(formatDollars(12_500_000n)).toBe('$12.50');
    expect(formatDollars(1_234_567_890n)).toBe('$1,234.56789');
    expect(formatDollars(1n)).toBe('$0.000001');
    expect(formatDollars(1_000_000_000_000n)).toBe('$1,000,000.00');
  });

  it('writes dollars with cents, exactly, and a loss with its minus', () => {
    expect(formatDollars(3_800_000n)).toBe('$3.80');
    expect(formatDollars(0n)).toBe('$0.00');
    expect(formatDollars(1_234n)).toBe('$0.001234');
    expect(formatDollars(-16_110_000n)).toBe('-$16.11');
    expect(formatDollars(1_234_567_000_000n)).toBe('$1,234,567.00');
  });

  it('is the exact amount: the same digits as formatAmount once the unit and separators are removed', () => {
    const digits = (text: string): string => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT }), (units) => {
        expect(digits(formatDollars(units).slice(1).replaceAll(',', ''))).toBe(digits(formatAmount(units)));
      }),
    );
  });
});
