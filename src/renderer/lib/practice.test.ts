import { describe, expect, it } from 'vitest';
import { PRACTICE_GRANT } from '../../shared/practice';
import { formatDollars } from '../../shared/protocol/units';
import { PRACTICE_GRANT_TEXT } from './practice';

describe('practice words', () => {
  it('names the amount main credits for one Add', () => {
    expect(`${PRACTICE_GRANT_TEXT}.00`).toBe(formatDollars(PRACTICE_GRANT));
  });
});
