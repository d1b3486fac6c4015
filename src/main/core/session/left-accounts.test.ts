import { describe, expect, it } from 'vitest';
import { AccountState } from '../../../client';
import type { Address } from '../../../shared/protocol';
import { LEFT_ACCOUNTS_KEPT, LeftAccounts, type LeftAccount } from './left-accounts';

const ASSET = 7n;
const EPOCH = 3n;
const addr = (i: number): Address => `0x${i.toString(16).padStart(40, '0')}`;

/** An exchange where each account rests what `resting` says on the one market. */
function world(resting: Map<string, number>) {
  const reader = {
    getBalance: () => Promise.resolve({ balance: 1_000n, pending: 0n }),
    getPosition: () => Promise.resolve(null),
    getBookOrders: (assetId: bigint, epoch: bigint, account: string) => {
      const n = resting.get(account.toLowerCase()) ?? 0;
      const buys = Array.from({ length: n }, (_, i) => ({
        id: `0x${account.slice(2, 10)}${i}`,
        price: 500_000n,
        size: 1n,
      }));
      return Promise.resolve({ assetId, epoch, buys, sells: [] });
    },
  };
  return reader as unknown as ConstructorParameters<typeof AccountState>[0]['reader'];
}

function leftAccounts(resting: Map<string, number>, signing: (a: string) => boolean = () => true) {
  const cancelled: string[] = [];
  const left = new LeftAccounts({
    reader: world(resting),
    markets: () => [{ assetId: ASSET, symbol: 'BTC' }],
    currentEpoch: () => EPOCH,
    canSign: signing,
    pending: () => 0,
    onChange: () => undefined,
    cancelAll: (a: LeftAccount) => {
      cancelled.push(a.address);
      return Promise.resolve();
    },
  });
  return { left, cancelled };
}

async function selectedState(resting: Map<string, number>, address: Address): Promise<AccountState> {
  const s = new AccountState({ reader: world(resting), account: address, currentEpoch: () => EPOCH });
  await s.refresh(ASSET, EPOCH);
  return s;
}

describe('LeftAccounts', () => {
  it('keeps watching a key left with orders resting, at once, until a read finds nothing resting', async () => {
    const resting = new Map([[addr(1), 2]]);
    const { left } = leftAccounts(resting);
    left.leave(await selectedState(resting, addr(1)), () => 1_000);
    // No blind moment: the last read is kept before the first read of its own.
    const [a] = left.list();
    expect(a?.state.restingOrders(ASSET, EPOCH)?.buys).toHaveLength(2);
    expect(a?.placedAt.size).toBe(2);
    resting.set(addr(1), 0);
    await left.readAll();
    expect(left.list()).toEqual([]);
  });

  it('does not keep an account with nothing resting, nor one this machine cannot sign for', async () => {
    const resting = new Map([[addr(2), 1]]);
    const { left } = leftAccounts(resting, (a) => a !== addr(2));
    left.leave(await selectedState(resting, addr(2)), () => undefined);
    left.leave(await selectedState(new Map(), addr(3)), () => undefined);
    expect(left.list()).toEqual([]);
  });

  it('past the bound, cancels every order of the one left longest ago before letting it go', async () => {
    const resting = new Map<string, number>();
    for (let i = 1; i <= LEFT_ACCOUNTS_KEPT + 1; i++) resting.set(addr(i), 1);
    const { left, cancelled } = leftAccounts(resting);
    for (let i = 1; i <= LEFT_ACCOUNTS_KEPT + 1; i++)
      left.leave(await selectedState(resting, addr(i)), () => undefined);
    expect(left.list()).toHaveLength(LEFT_ACCOUNTS_KEPT);
    expect(cancelled).toEqual([addr(1)]);
    left.take(addr(2));
    expect(left.has(addr(2))).toBe(false);
  });
});
