import { describe, expect, it } from 'vitest';
import type { BookView } from '../../shared/bridge';
import { levelForStatus } from './notices';
import { bookBlockReason, closingPnl } from './trading';

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

describe("the ticket's close", () => {
  const usd = (d: number): string => String(Math.round(d * 1_000_000));
  it('is the profit or loss against the cost basis it removes, not the proceeds', () => {
    // Long 5 bought at 53¢ ($2.65), sold at 47¢: $2.35 in, a loss of $0.30.
    expect(closingPnl({ closing: usd(5), proceeds: usd(2.35) }, { size: usd(5), margin: usd(2.65) })).toEqual({
      pnl: -300_000n,
      proceeds: 2_350_000n,
      basis: 2_650_000n,
    });
    // Short 5 sold at 53¢ (margin 5 × 47¢), bought back at 47¢ (proceeds 5 × 53¢): a gain of $0.30.
    expect(closingPnl({ closing: usd(5), proceeds: usd(2.65) }, { size: usd(-5), margin: usd(2.35) })?.pnl).toBe(
      300_000n,
    );
  });

  it('removes the basis pro rata, rounded down, for part of the position', () => {
    // 3 of 7 held for $3.00: basis 3/7 of it, 1,285,714 (rounded down).
    expect(closingPnl({ closing: usd(3), proceeds: usd(1.2) }, { size: usd(7), margin: usd(3) })).toEqual({
      pnl: 1_200_000n - 1_285_714n,
      proceeds: 1_200_000n,
      basis: 1_285_714n,
    });
  });

  it('is unknown without a closing part or a position that holds it', () => {
    expect(closingPnl({}, { size: usd(5), margin: usd(2) })).toBeNull();
    expect(closingPnl({ closing: usd(5), proceeds: usd(2) }, null)).toBeNull();
    expect(closingPnl({ closing: usd(5), proceeds: usd(2) }, { size: usd(4), margin: usd(2) })).toBeNull();
    expect(closingPnl({ closing: usd(5), proceeds: usd(2) }, { size: '0', margin: '0' })).toBeNull();
  });
});
