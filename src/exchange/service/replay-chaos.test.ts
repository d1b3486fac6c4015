// Book rebuild under the feed, with a seeded burst of mixed activity from several accounts and a
// service restart in the middle. A client subscribes, takes the REST snapshot, applies feed events
// on top (contiguous seqIds, events already in the snapshot skipped) and must equal the next REST
// snapshot at every checkpoint; after the restart it resyncs (new subscription + snapshot) and the
// same holds. Extends feeds.test.ts (one fixed sequence, one checkpoint, no restart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Rng,
  conservationViolation,
  connectFeed,
  restBookToL2,
  type FeedClient,
} from '../../../test/exchange-service/chaos-kit';
import type { MarketEvent } from '../engine';
import { BookMirror, comparableSnapshot } from '../engine/book-mirror';
import { ZERO_HASH, type DigestSigner, type Hex } from '../../shared/protocol';
import { startFixture, type Fixture } from '../../../test/support/exchange/test-fixture';
import {
  cancelOrder,
  cancelReplaceBody,
  cancelReplaceOrder,
  fillOrder,
  signedBody,
} from '../../../test/support/exchange/testkit';

const C = 1_000_000n;
type Body = Record<string, unknown>;
let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture();
  for (const who of ['alice', 'bob', 'carol'] as const) await fx.svc.credit(fx.keys[who].address, 100_000n * C);
});
afterAll(() => fx.close());

/** Subscribes, then snapshots: events from the subscription on are either in the snapshot or after it. */
async function follow(assetId: bigint): Promise<{ feed: FeedClient; mirror: BookMirror }> {
  const feed = await connectFeed(fx.svc.marketWsUrl);
  feed.send({ type: 'subscribe', assetId: assetId.toString() });
  await feed.next((m) => m['type'] === 'subscribed');
  const snap = (await fx.http.get<Body>(`/book/${assetId}/0?depth=5000`)).body;
  return { feed, mirror: new BookMirror(restBookToL2(snap)) };
}

/** Applies feed events up to the current REST snapshot and compares the two books. */
async function checkpoint(f: { feed: FeedClient; mirror: BookMirror }, assetId: bigint): Promise<number> {
  const snap = (await fx.http.get<Body>(`/book/${assetId}/0?depth=5000`)).body;
  const target = snap['seqId'] as number;
  let applied = 0;
  while (f.mirror.seqId < target) {
    const e = (await f.feed.next((m) => typeof m['seqId'] === 'number')) as unknown as MarketEvent;
    if (e.data.assetId !== assetId.toString()) continue;
    if (e.seqId <= f.mirror.seqId) continue; // already in the snapshot we started from
    f.mirror.apply(e); // throws on a seqId gap
    applied++;
  }
  expect(f.mirror.seqId).toBe(target);
  expect(f.mirror.comparable()).toEqual(comparableSnapshot(restBookToL2(snap)));
  return applied;
}

/** A resting order of ours and its side (a replacement must keep the side). */
interface Resting {
  id: Hex;
  sell: boolean;
}

/** A seeded burst: resting quotes, crossing IOCs, cancels, cancel-replaces and cancel-alls. */
async function burst(rng: Rng, assetId: bigint, steps: number, resting: Map<string, Resting[]>): Promise<void> {
  const who: DigestSigner[] = [fx.keys.alice, fx.keys.bob, fx.keys.carol];
  const d = fx.svc.domain;
  for (let i = 0; i < steps; i++) {
    const key = rng.pick(who);
    const mine = resting.get(key.address) ?? [];
    resting.set(key.address, mine);
    const roll = rng.int(100);
    let res;
    if (roll < 50 || mine.length === 0) {
      const sell = rng.chance(0.5);
      const crossing = rng.chance(0.25);
      const price = crossing
        ? sell
          ? 300_000n
          : 700_000n
        : sell
          ? 510_000n + BigInt(rng.int(40)) * 1000n
          : 490_000n - BigInt(rng.int(40)) * 1000n;
      const order = fillOrder(
        { key },
        { assetId, epoch: 0n, side: sell, price, size: C * BigInt(1 + rng.int(4)), timeInForce: crossing ? 2n : 0n },
      );
      res = await fx.http.post<Body>('/orders', signedBody('orders', order, d, key));
      if (!crossing && res.body['status'] === 'ACCEPTED') mine.push({ id: res.body['orderId'] as Hex, sell });
    } else if (roll < 70) {
      const { id } = mine.splice(rng.int(mine.length), 1)[0]!;
      res = await fx.http.post(
        '/cancels',
        signedBody('cancels', cancelOrder({ key }, { assetId, epoch: 0n, orderHash: id }), d, key),
      );
    } else if (roll < 90) {
      const { id, sell } = mine.splice(rng.int(mine.length), 1)[0]!;
      const rep = fillOrder(
        { key },
        {
          assetId,
          epoch: 0n,
          side: sell,
          price: sell ? 520_000n + BigInt(rng.int(20)) * 1000n : 480_000n - BigInt(rng.int(20)) * 1000n,
          size: C,
        },
      );
      res = await fx.http.post<Body>(
        '/cancel-replace',
        cancelReplaceBody(cancelReplaceOrder({ key }, { assetId, epoch: 0n, cancelOrderHash: id }), rep, d, key),
      );
      const newId = (res.body as { replacement?: { orderId?: string } }).replacement?.orderId;
      if (typeof newId === 'string') mine.push({ id: newId as Hex, sell });
    } else {
      // Cancel-all: the zero order hash cancels every resting order of the account in this book.
      res = await fx.http.post(
        '/cancels',
        signedBody('cancels', cancelOrder({ key }, { assetId, epoch: 0n, orderHash: ZERO_HASH as Hex }), d, key),
      );
      mine.length = 0;
    }
    expect([i, res.status, res.body]).toEqual([i, 202, expect.anything() as unknown]);
  }
}

function expectConsistent(): void {
  expect(fx.svc.checkInvariants()).toEqual([]);
  expect(conservationViolation(fx.svc.totals())).toBeNull();
}

describe('book rebuild from snapshot + feed under mixed activity and a restart', () => {
  it('equals the REST snapshot at every checkpoint, before and after a restart', async () => {
    const rng = new Rng(Number(process.env['CHAOS_SEED'] ?? 7));
    const assetId = fx.btc.assetId;
    const resting = new Map<string, Resting[]>();
    let f = await follow(assetId);
    let applied = 0;
    for (let round = 0; round < 4; round++) {
      await burst(rng, assetId, 25, resting);
      applied += await checkpoint(f, assetId);
      expectConsistent();
    }
    expect(applied).toBeGreaterThan(100); // the feed carried the whole burst, not a few events
    const before = (await fx.http.get<Body>(`/book/${assetId}/0?depth=5000`)).body;
    await f.feed.close();

    // Restart (journal replay): the book and its seqId come back; clients resync from a snapshot.
    await fx.restart();
    expectConsistent();
    const after = (await fx.http.get<Body>(`/book/${assetId}/0?depth=5000`)).body;
    expect(comparableSnapshot(restBookToL2(after))).toEqual(comparableSnapshot(restBookToL2(before)));
    f = await follow(assetId);
    for (let round = 0; round < 3; round++) {
      await burst(rng, assetId, 20, resting);
      await checkpoint(f, assetId);
      expectConsistent();
    }
    await f.feed.close();
  });
});
