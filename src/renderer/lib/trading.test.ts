import { describe, expect, it } from 'vitest';
import type { BookView } from '../../shared/bridge';
import { levelForStatus } from './notices';
import { bookBlockReason } from './trading';

const book = (state: BookView['health']['state'], reason = ''): BookView => ({
  assetId: '1',
  epoch: '7',
  seqId: '1',
  bids: [],
  asks: [],
  last: null,
  health: { state, reason, resyncs: 0, lastUpdateAt: null },
});

describe('order entry gate', () => {
  it('allows trading only on a live book, and says why not', () => {
    expect(bookBlockReason(book('live'))).toBeNull();
    expect(bookBlockReason(null)).toBe('Waiting for the order book.');
    expect(bookBlockReason(book('stale', 'no update for 12s'))).toBe(
      'Book stale: no update for 12s. Order entry is paused.',
    );
    expect(bookBlockReason(book('resyncing'))).toMatch(/^Book resyncing: no recent updates/);
    expect(bookBlockReason(book('down', 'socket closed'))).toMatch(/^Book down: socket closed/);
  });
});

describe('result notices', () => {
  it('reads statuses as good, partial or bad news', () => {
    expect(levelForStatus('FILLED')).toBe('success');
    expect(levelForStatus('ACCEPTED')).toBe('success');
    expect(levelForStatus('PARTIALLY_FILLED')).toBe('warning');
    expect(levelForStatus('REJECTED')).toBe('error');
    expect(levelForStatus('CANCEL_NOT_COMMITTED')).toBe('error');
    expect(levelForStatus('CANCEL_FAILED')).toBe('error');
  });
});
