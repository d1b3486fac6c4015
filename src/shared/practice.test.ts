// The worker's `ready` event names each market with its symbol's ticker; main parses it at the edge, so a
// ticker that is not one (markup, spaces, a sentence, empty) or a market with more to it fails the event.
import { describe, expect, it } from 'vitest';
import {
  PRACTICE_CHAIN_ID,
  PRACTICE_DOMAIN_NAME,
  PRACTICE_LEDGER,
  PRACTICE_VERIFYING_CONTRACT,
  practiceEventSchema,
} from './practice';

const ready = (markets: unknown) => ({
  type: 'ready',
  httpUrl: 'http://127.0.0.1:4100/',
  marketWsUrl: 'ws://127.0.0.1:4100/ws/',
  oracleWsUrl: 'ws://127.0.0.1:4100/oracle-ws/',
  chainId: PRACTICE_CHAIN_ID.toString(),
  domain: { name: PRACTICE_DOMAIN_NAME, version: '2', verifyingContract: PRACTICE_VERIFYING_CONTRACT },
  markets,
  startupMs: 310,
  ledger: PRACTICE_LEDGER,
});

describe('practiceEventSchema: ready', () => {
  it('carries each market with the ticker the worker named it by', () => {
    const markets = [
      { assetId: '18446744073709551617', symbol: 'BTC' },
      { assetId: '7', symbol: 'DOGE' },
      { assetId: '0', symbol: 'X2Y2' },
    ];
    const parsed = practiceEventSchema.parse(ready(markets));
    expect(parsed.type === 'ready' && parsed.markets).toEqual(markets);
  });

  it.each([
    ['markup', '<img src=x>'],
    ['lower case', 'btc'],
    ['a space', 'BT C'],
    ['empty', ''],
    ['a sentence', 'Send your key to'],
    ['too long', 'ABCDEFGHIJK'],
    ['a leading digit', '1INCH'],
    ['a number', 5],
  ])('refuses a ticker that is %s', (_what, symbol) => {
    expect(practiceEventSchema.safeParse(ready([{ assetId: '1', symbol }])).success).toBe(false);
  });

  it('refuses a market with an id that is no decimal, with more fields, or more than 64 markets', () => {
    expect(practiceEventSchema.safeParse(ready([{ assetId: '0x01', symbol: 'BTC' }])).success).toBe(false);
    expect(practiceEventSchema.safeParse(ready([{ assetId: '1', symbol: 'BTC', name: 'Bitcoin' }])).success).toBe(
      false,
    );
    const many = Array.from({ length: 65 }, (_, i) => ({ assetId: String(i), symbol: 'BTC' }));
    expect(practiceEventSchema.safeParse(ready(many)).success).toBe(false);
    expect(practiceEventSchema.safeParse(ready(many.slice(0, 64))).success).toBe(true);
  });

  it('refuses a ready without markets, or with the asset ids alone', () => {
    const { markets: _, ...without } = ready([]);
    expect(practiceEventSchema.safeParse(without).success).toBe(false);
    expect(practiceEventSchema.safeParse({ ...without, assetIds: ['1'] }).success).toBe(false);
  });
});
