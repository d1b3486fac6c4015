import { describe, expect, it } from 'vitest';
import type { BookView, OrderHistoryEntry } from '../../shared/bridge';
import { createEventHub } from './event-hub';
import { windowOutbox, type WindowEvent } from './window-outbox';

/** A manual clock and timer: `run()` fires what is due. */
function manualTime() {
  let t = 0;
  let pending: { at: number; fn: () => void } | null = null;
  return {
    now: () => t,
    later: (fn: () => void, ms: number) => {
      const entry = { at: t + ms, fn };
      pending = entry;
      return () => {
        if (pending === entry) pending = null;
      };
    },
    /** Moves the clock by `ms` and fires the timer when due. */
    advance(ms: number) {
      t += ms;
      const due = pending;
      if (due && due.at <= t) {
        pending = null;
        due.fn();
      }
    },
    get armed() {
      return pending !== null;
    },
  };
}

const book = (seqId: string, bid: string): BookView => ({
  assetId: '1',
  epoch: '2',
  seqId,
  bids: [{ price: bid, size: '1000000', orderCount: 1, ownSize: '0' }],
  asks: [],
  last: null,
  health: { state: 'live', reason: '', resyncs: 0, lastUpdateAt: null },
});

const answer: OrderHistoryEntry = {
  orderId: `0x${'ab'.repeat(32)}`,
  assetId: '1',
  epoch: '2',
  side: 'buy',
  price: '500000',
  size: '1000000',
  filled: '0',
  outcome: 'open',
  reason: '',
  timeInForce: 'GTC',
  signedBy: 'master',
  placedAt: 1,
  updatedAt: 1,
};

function rig() {
  const hub = createEventHub();
  const time = manualTime();
  const sent: WindowEvent[][] = [];
  const stop = windowOutbox(hub, (batch) => sent.push([...batch]), {
    frameMs: 16,
    now: time.now,
    later: time.later,
  });
  return { hub, time, sent, stop };
}

describe('windowOutbox', () => {
  it('sends the answer to an own order before the market data queued ahead of it', () => {
    const { hub, time, sent } = rig();
    hub.emit('book', { subscriptionId: 's1', book: book('1', '400000') });
    time.advance(16); // the first book of a quiet frame goes out at once…
    hub.emit('book', { subscriptionId: 's1', book: book('2', '410000') });
    hub.emit('markets', []);
    hub.emit('orderAnswered', answer); // …later market data waits for the frame; the answer does not
    expect(sent.map((b) => b.map(([e]) => e))).toEqual([['book'], ['orderAnswered']]);
    time.advance(16);
    expect(sent.map((b) => b.map(([e]) => e))).toEqual([['book'], ['orderAnswered'], ['book', 'markets']]);
  });

  it('keeps only the latest book per subscription in a frame, each subscription in its place', () => {
    const { hub, time, sent } = rig();
    hub.emit('book', { subscriptionId: 's1', book: book('1', '400000') });
    hub.emit('book', { subscriptionId: 's2', book: book('1', '100000') });
    hub.emit('book', { subscriptionId: 's1', book: book('3', '420000') });
    hub.emit('book', { subscriptionId: 's1', book: book('4', '430000') });
    time.advance(0);
    expect(sent).toHaveLength(1);
    expect(
      sent[0]!.map(([, p]) => [(p as { subscriptionId: string }).subscriptionId, (p as { book: BookView }).book.seqId]),
    ).toEqual([
      ['s1', '4'],
      ['s2', '1'],
    ]);
  });

  it('sends at most one batch of market data per frame', () => {
    const { hub, time, sent } = rig();
    for (let i = 0; i < 10; i++) {
      hub.emit('book', { subscriptionId: 's1', book: book(String(i), '400000') });
      time.advance(4);
    }
    // 40 ms of books every 4 ms: a batch at 0, 16 and 32, the last holding the latest.
    expect(sent.map((b) => (b[0]![1] as { book: BookView }).book.seqId)).toEqual(['0', '4', '8']);
    expect(time.armed).toBe(true);
    time.advance(16);
    expect(sent.at(-1)!.map(([, p]) => (p as { book: BookView }).book.seqId)).toEqual(['9']);
  });

  it('keeps every trade print, in order, with the frame’s market data', () => {
    const { hub, time, sent } = rig();
    const print = (seqId: string) => ({
      assetId: '1',
      epoch: '2',
      price: '500000',
      size: '1000000',
      side: 'buy' as const,
      at: 1,
      seqId,
    });
    hub.emit('trade', print('1'));
    hub.emit('trade', print('2'));
    hub.emit('oracle', { symbolId: '1', price: '1', at: 1 });
    hub.emit('oracle', { symbolId: '1', price: '2', at: 2 });
    time.advance(0);
    expect(
      sent[0]!.map(([e, p]) => [e, (p as { seqId?: string; price: string }).seqId ?? (p as { price: string }).price]),
    ).toEqual([
      ['trade', '1'],
      ['trade', '2'],
      ['oracle', '2'],
    ]);
  });

  it('sends everything that is not market data at once, alone', () => {
    const { hub, sent } = rig();
    hub.emit('notice', { level: 'info', message: 'hello' });
    hub.emit('orderAnswered', answer);
    expect(sent.map((b) => b.map(([e]) => e))).toEqual([['notice'], ['orderAnswered']]);
  });

  it('drops what it holds when stopped', () => {
    const { hub, time, sent, stop } = rig();
    hub.emit('markets', []);
    stop();
    time.advance(16);
    hub.emit('markets', []);
    expect(sent).toEqual([]);
  });
});
