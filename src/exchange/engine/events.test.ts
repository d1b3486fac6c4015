import { describe, expect, it } from 'vitest';
import { BookMirror, comparableSnapshot } from './book-mirror';
import { Engine } from './engine';
import { ALICE, ASSET, BOB, CAROL, EPOCH, hexId, Script, STRIKE } from './testkit';
import type { MarketEvent } from './types';

const C = 1_000_000n;

describe('market events', () => {
  it('snapshot + events = next snapshot, with contiguous seqIds', () => {
    const s = new Script();
    s.market();
    for (const who of [ALICE, BOB, CAROL]) s.credit(who, 1000n * C);
    s.order({ account: ALICE, side: 'buy', price: 450_000n, size: 3n * C });
    s.order({ account: BOB, side: 'sell', price: 550_000n, size: 2n * C });

    const mirror = new BookMirror(s.engine.l2(ASSET, EPOCH, 5000));
    const events: MarketEvent[] = [];
    const keep = (out: { events: MarketEvent[] }) => events.push(...out.events);
    const a = s.order({ account: CAROL, side: 'buy', price: 460_000n, size: 4n * C });
    keep(a);
    keep(s.order({ account: BOB, side: 'sell', price: 450_000n, size: 5n * C })); // hits .46 (4) then .45 (1)
    keep(s.order({ account: ALICE, side: 'sell', price: 550_000n, size: 1n * C })); // rests behind BOB
    keep(s.order({ account: ALICE, side: 'buy', price: 560_000n, size: 3n * C })); // self-trade cancel + fill + rest
    keep(s.cancel(CAROL, a.result.orderId)); // already filled: no event
    keep(s.cancel(ALICE, `0x${'0'.repeat(64)}`));

    expect(events.map((e) => e.seqId)).toEqual(events.map((_, i) => mirror.seqId + 1 + i));
    for (const e of events) mirror.apply(e);
    expect(mirror.comparable()).toEqual(comparableSnapshot(s.engine.l2(ASSET, EPOCH, 5000)));

    const { events: res } = s.resolve(STRIKE);
    for (const e of res) mirror.apply(e);
    expect(mirror.comparable()).toEqual({ seqId: s.engine.l2(ASSET, EPOCH).seqId, bids: [], asks: [] });
  });

  it('events carry the documented wire fields', () => {
    const s = new Script();
    s.market();
    s.credit(ALICE, 100n * C);
    s.credit(BOB, 100n * C);
    const { events } = s.order({ account: ALICE, side: 'sell', price: 123_000n, size: 20_000n, tif: 'ALO' });
    expect(events[0]).toEqual({
      type: 'order',
      seqId: 1,
      data: {
        orderId: hexId(3), // ids count up across the script: two credits, then this order
        assetId: ASSET.toString(),
        epoch: '0',
        price: '123000',
        side: 'sell',
        size: '20000',
        arrivalTime: String(Math.floor(s.time / 1000)),
        tif: 'ALO',
        type: 'limit',
      },
    });
    const t = s.order({ account: BOB, side: 'buy', price: 200_000n, size: 10_000n }).events[0];
    expect(t).toMatchObject({
      type: 'trade',
      seqId: 2,
      data: { fill: '10000', fillPrice: '123000', size: '10000', tif: 'ALO' },
    });
  });

  it('seqIds are per book', () => {
    const s = new Script();
    s.market();
    s.market(ASSET, 1n);
    s.credit(ALICE, 100n * C);
    const e0 = s.order({ account: ALICE, side: 'buy', price: 100_000n, size: C }).events[0];
    const e1 = s.order({ account: ALICE, side: 'buy', price: 100_000n, size: C, epoch: 1n }).events[0];
    expect(e0?.seqId).toBe(1);
    expect(e1?.seqId).toBe(1);
    expect(new Engine().apply({ type: 'credit', owner: ALICE, amount: 1n, index: 0n, time: 0 }).events).toEqual([]);
  });
});
