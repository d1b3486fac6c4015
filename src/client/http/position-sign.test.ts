import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { positionSchema, withSignFlag } from './schemas';

const wire = (o: Partial<Record<string, unknown>>) => ({
  account: '0x' + '11'.repeat(20),
  assetId: '7',
  epoch: '3',
  ts: 1,
  size: '0',
  margin: '0',
  balance: '0',
  pnl: '0',
  side: false,
  bSide: false,
  mSide: false,
  pSide: false,
  ...o,
});

describe('position sign flags', () => {
  it('reads a realised loss with pSide as negative (buy 80 at 99¢, sell at 1¢)', () => {
    const p = positionSchema.parse(wire({ pnl: '78400000', pSide: true }));
    expect(p.realisedPnl).toBe(-78_400_000n);
  });

  it('reads each amount with its own flag', () => {
    const p = positionSchema.parse(
      wire({
        size: '5',
        side: true,
        balance: '5000000',
        bSide: true,
        margin: '2000000',
        mSide: false,
        pnl: '10',
        pSide: false,
      }),
    );
    expect(p).toMatchObject({ size: -5n, inventory: -5_000_000n, margin: 2_000_000n, realisedPnl: 10n });
  });

  it('accepts an explicit minus and never flips it back with the flag', () => {
    expect(positionSchema.parse(wire({ pnl: '-5' })).realisedPnl).toBe(-5n);
    expect(positionSchema.parse(wire({ pnl: '-5', pSide: true })).realisedPnl).toBe(-5n);
    expect(positionSchema.parse(wire({ pnl: '0', pSide: true })).realisedPnl).toBe(0n);
  });

  it('withSignFlag: the magnitude is kept and the sign follows the flag or the minus', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.boolean(), (v, flag) => {
        const r = withSignFlag(v, flag);
        expect(r < 0n ? -r : r).toBe(v < 0n ? -v : v);
        expect(r < 0n).toBe(v < 0n || (flag && v !== 0n));
      }),
    );
  });

  it('refuses a non-decimal amount', () => {
    expect(() => positionSchema.parse(wire({ pnl: '1.5' }))).toThrow();
    expect(() => positionSchema.parse(wire({ balance: 5 }))).toThrow();
  });
});
