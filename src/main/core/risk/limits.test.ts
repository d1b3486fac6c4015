import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../../../shared/settings-schema';
import { LIMIT_NAMES, limitText, loosened, parseLimits } from './limits';

const D = 1_000_000n;
const percent: RiskLimits = { ...DEFAULT_RISK_LIMITS };
const fixed = (amount: string): RiskLimits => ({ ...DEFAULT_RISK_LIMITS, dailyLossAmount: amount });

describe('the fixed daily loss amount', () => {
  it('parses to amount units, or null when the percentage applies', () => {
    expect(parseLimits(percent).dailyLossFixed).toBeNull();
    expect(parseLimits(fixed('250')).dailyLossFixed).toBe(250n * D);
    expect(parseLimits(fixed('0.5')).dailyLossFixed).toBe(D / 2n);
  });

  it('is looser set in place of the percentage, grown, or cleared; stricter only shrunk', () => {
    expect(loosened(percent, fixed('5'))).toEqual(['dailyLossAmount']);
    expect(loosened(fixed('250'), fixed('250.01'))).toEqual(['dailyLossAmount']);
    expect(loosened(fixed('250'), percent)).toEqual(['dailyLossAmount']);
    expect(loosened(fixed('250'), fixed('249.99'))).toEqual([]);
    expect(loosened(fixed('250'), fixed('250.00'))).toEqual([]);
    expect(loosened(percent, percent)).toEqual([]);
    // Each on its own: a smaller percentage with a larger amount still asks for the amount.
    expect(loosened(fixed('5'), { ...fixed('6'), dailyLossPercent: 1 })).toEqual(['dailyLossAmount']);
  });

  it('is named and read out in main’s dialog words', () => {
    expect(LIMIT_NAMES.dailyLossAmount).toBe('Daily loss limit (fixed amount)');
    expect(limitText('dailyLossAmount', fixed('250'))).toBe('$250.00 a day');
    expect(limitText('dailyLossAmount', percent)).toBe('none: the percentage applies');
    expect(limitText('dailyLossPercent', percent)).toBe(
      "10% of the day's starting equity (when no fixed amount is set)",
    );
  });
});
