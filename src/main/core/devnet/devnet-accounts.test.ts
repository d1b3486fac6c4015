import { describe, expect, it } from 'vitest';
import { parseDevnetAccounts } from './devnet-accounts';

const key = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const addr = (n: number) => '0x' + n.toString(16).padStart(40, '0');

describe('parseDevnetAccounts', () => {
  it('reads the demo accounts of the devnet file and leaves the bots alone', () => {
    const file = {
      version: 1,
      httpUrl: 'http://127.0.0.1:8787',
      accounts: [
        { label: 'demo1', address: addr(1), privateKey: key(1), role: 'demo' },
        { label: 'bot1', address: addr(2), privateKey: key(2), role: 'bot' },
      ],
    };
    expect(parseDevnetAccounts(JSON.stringify(file))).toEqual({
      accounts: [{ label: 'demo1', address: addr(1), privateKey: key(1), role: 'demo' }],
      problem: null,
    });
  });

  it('yields no accounts and a sentence for a malformed file', () => {
    expect(parseDevnetAccounts('{')).toEqual({ accounts: [], problem: 'The devnet accounts file is not JSON.' });
    expect(parseDevnetAccounts('{"accounts":[{"label":"x"}]}').accounts).toEqual([]);
  });
});
