// GET /fills/:account (a documented devnet extra): own maker and taker fills at the prices they traded at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DigestSigner, Hex } from '../../shared/protocol';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import { fillOrder, signedBody } from '../../../test/support/exchange/testkit';

let fx: Fixture;
const C = 1_000_000n;
type Body = Record<string, unknown>;
interface FillJson {
  orderId: string;
  assetId: string;
  epoch: string;
  side: boolean;
  price: string;
  size: string;
  liquidity: string;
  ts: number;
}

beforeAll(async () => {
  fx = await startFixture();
  await fx.svc.credit(fx.keys.alice.address, 1_000n * C);
  await fx.svc.credit(fx.keys.bob.address, 1_000n * C);
});
afterAll(() => fx.close());

async function place(
  key: DigestSigner,
  sell: boolean,
  price: bigint,
  size: bigint,
  tif = 0n,
  assetId = fx.eth.assetId,
): Promise<Hex> {
  const order = fillOrder({ key }, { assetId, epoch: 0n, side: sell, price, size, timeInForce: tif });
  const body = signedBody('orders', order, fx.svc.domain, key);
  const res = await fx.http.post<Body>('/orders', body);
  expect(res.status).toBe(202);
  return body['orderHash'] as Hex;
}

const fillsOf = async (account: string, query = ''): Promise<FillJson[]> => {
  const res = await fx.http.get<{ account: string; fills: FillJson[] }>(`/fills/${account}${query}`);
  expect(res.status).toBe(200);
  expect(res.body.account).toBe(account.toLowerCase());
  return res.body.fills;
};

describe('GET /fills/:account', () => {
  it('answers an empty list for an account without fills', async () => {
    expect(await fillsOf(fx.keys.carol.address)).toEqual([]);
  });

  it('reports maker and taker fills at the prices they traded at, newest first, with price improvement', async () => {
    const alice = fx.keys.alice.address.toLowerCase();
    const bob = fx.keys.bob.address.toLowerCase();
    // Bob rests asks at 40¢ (2) and 45¢ (3); alice buys 4 IOC at a 60¢ limit: 2 at 40¢, then 2 at 45¢.
    const ask40 = await place(fx.keys.bob, true, 400_000n, 2n * C);
    const ask45 = await place(fx.keys.bob, true, 450_000n, 3n * C);
    const buy = await place(fx.keys.alice, false, 600_000n, 4n * C, 2n);
    const mine = await fillsOf(alice);
    expect(mine.map((f) => [f.orderId, f.side, f.price, f.size, f.liquidity])).toEqual([
      [buy, false, '450000', String(2n * C), 'taker'],
      [buy, false, '400000', String(2n * C), 'taker'],
    ]);
    for (const f of mine) {
      expect(f).toMatchObject({ assetId: fx.eth.assetId.toString(), epoch: '0' });
      expect(Number.isSafeInteger(f.ts) && f.ts > 0).toBe(true);
    }
    expect((await fillsOf(bob)).map((f) => [f.orderId, f.side, f.price, f.size, f.liquidity])).toEqual([
      [ask45, true, '450000', String(2n * C), 'maker'],
      [ask40, true, '400000', String(2n * C), 'maker'],
    ]);

    // A sell far below the resting bid fills at the bid (flatten-style IOC at the bottom of the range).
    const bid = await place(fx.keys.bob, false, 420_000n, 10n * C);
    const flatten = await place(fx.keys.alice, true, 1_000n, 4n * C, 2n);
    expect((await fillsOf(alice, '?limit=1')).map((f) => [f.orderId, f.side, f.price, f.size, f.liquidity])).toEqual([
      [flatten, true, '420000', String(4n * C), 'taker'],
    ]);
    expect((await fillsOf(bob, '?limit=1'))[0]).toMatchObject({ orderId: bid, price: '420000', liquidity: 'maker' });
  });

  it('filters by asset and epoch, and refuses bad parameters', async () => {
    const alice = fx.keys.alice.address;
    expect(await fillsOf(alice, `?assetId=${fx.btc.assetId}`)).toEqual([]);
    expect(await fillsOf(alice, `?assetId=${fx.eth.assetId}&epoch=1`)).toEqual([]);
    expect(await fillsOf(alice, `?assetId=${fx.eth.assetId}&epoch=0`)).toHaveLength(3);
    for (const [q, code] of [
      ['?limit=0', 'INVALID_LIMIT'],
      ['?limit=1001', 'INVALID_LIMIT'],
      ['?assetId=x', 'INVALID_ASSET_ID'],
      ['?epoch=-1', 'INVALID_EPOCH'],
    ]) {
      expect(await fx.http.get(`/fills/${alice}${q}`)).toMatchObject({ status: 400, body: { error: code } });
    }
    expect(await fx.http.get('/fills/0x1234')).toMatchObject({ status: 404, body: { error: 'INVALID_ACCOUNT' } });
  });
});
