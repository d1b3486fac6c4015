import { describe, expect, it } from 'vitest';
import { TradeTape } from './trade-tape';

const print = (epoch: string, seq: number) => ({
  assetId: '7',
  epoch,
  price: '500000',
  size: '1000000',
  side: 'buy' as const,
  at: seq,
  seqId: String(seq),
});

describe('TradeTape', () => {
  it('keeps each market newest first and bounded', () => {
    const tape = new TradeTape(3);
    for (let i = 1; i <= 5; i++) tape.push(print('1', i));
    tape.push(print('2', 9));
    expect(tape.recent('7', '1').map((t) => t.seqId)).toEqual(['5', '4', '3']);
    expect(tape.recent('7', '2').map((t) => t.seqId)).toEqual(['9']);
    expect(tape.recent('7', '3')).toEqual([]);
  });
  it('forgets the oldest markets past its market bound', () => {
    const tape = new TradeTape(2);
    for (let e = 0; e < 70; e++) tape.push(print(String(e), e));
    expect(tape.recent('7', '0')).toEqual([]);
    expect(tape.recent('7', '69')).toHaveLength(1);
  });
});
