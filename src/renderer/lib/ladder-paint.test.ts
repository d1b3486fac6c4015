import { describe, expect, it } from 'vitest';
import { fairRowIndex, LadderPainter, sizeText, type LadderContext, type LadderGeometry } from './ladder-paint';
import { ladderRows, reuseRows, type LadderRow } from './ladder';

type Call = [string, ...unknown[]];

/** A 2D context that records what is drawn, with the fill style and font in force at each call. */
function recorder(): { ctx: LadderContext; calls: Call[] } {
  const calls: Call[] = [];
  const ctx = {
    fillStyle: '' as unknown,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    clearRect: (...a: number[]) => calls.push(['clearRect', ...a]),
    fillRect: (...a: number[]) => calls.push(['fillRect', ctx.fillStyle, ...a]),
    fillText: (text: string, x: number, y: number) =>
      calls.push(['fillText', text, x, y, ctx.fillStyle, ctx.font, ctx.textAlign, ctx.textBaseline]),
    save: () => calls.push(['save']),
    restore: () => calls.push(['restore']),
    beginPath: () => calls.push(['beginPath']),
    rect: (...a: number[]) => calls.push(['rect', ...a]),
    clip: () => calls.push(['clip']),
    moveTo: (...a: number[]) => calls.push(['moveTo', ...a]),
    lineTo: (...a: number[]) => calls.push(['lineTo', ...a]),
    closePath: () => calls.push(['closePath']),
    fill: () => calls.push(['fill', ctx.fillStyle]),
  };
  return { ctx: ctx as unknown as LadderContext, calls };
}

const col = (x: number, width: number, color: string) => ({ x, width, padRight: 4, color });
const PRICES = [502_000n, 501_000n, 500_000n, 499_000n, 498_000n];
const geometry: LadderGeometry = {
  width: 600,
  height: 104,
  rows: PRICES.map((_, i) => ({ top: 2 + 20 * i, height: 20 })),
  cellTop: 0,
  cellHeight: 19,
  font: '12px mono',
  cumBid: col(58, 100, 'faint'),
  bid: col(158, 100, 'up'),
  ask: col(328, 100, 'down'),
  cumAsk: col(428, 100, 'faint'),
  bidBar: 'upSoft',
  askBar: 'downSoft',
  price: col(258, 70, 'text'),
  fair: 'fairViolet',
};
const level = (price: bigint, size: bigint) => ({
  price: price.toString(),
  size: size.toString(),
  orderCount: 1,
  ownSize: '0',
});
const book = (bids: [bigint, bigint][], asks: [bigint, bigint][]) => ({
  bids: bids.map(([p, s]) => level(p, s)),
  asks: asks.map(([p, s]) => level(p, s)),
  last: null,
});
const max = (rows: readonly LadderRow[]) =>
  rows.reduce((m, r) => (r.cumBid > m ? r.cumBid : r.cumAsk > m ? r.cumAsk : m), 0n);

describe('LadderPainter', () => {
  it('draws each size right-aligned in its column, centred on its row, with the column colour, under a clip', () => {
    const rows = ladderRows(
      book(
        [
          [499_000n, 2_000_000n],
          [498_000n, 3_000_000n],
        ],
        [[501_000n, 1_500_000n]],
      ),
      PRICES,
      1,
    );
    const { ctx, calls } = recorder();
    expect(new LadderPainter(ctx).paint(rows, max(rows), geometry)).toBe(5);
    expect(calls[0]).toEqual(['clearRect', 0, 0, 600, 104]);
    const texts = calls.filter((c) => c[0] === 'fillText');
    // [text, x, y, colour]: x is the cell's right edge less its padding; y the row's middle.
    expect(texts.map((c) => c.slice(1, 5))).toEqual([
      ['2', 154, 71.5, 'faint'],
      ['5', 154, 91.5, 'faint'],
      ['2', 254, 71.5, 'up'],
      ['3', 254, 91.5, 'up'],
      ['1.5', 424, 31.5, 'down'],
      ['1.5', 524, 11.5, 'faint'],
      ['1.5', 524, 31.5, 'faint'],
    ]);
    expect(texts.every((c) => c[5] === '12px mono' && c[6] === 'right' && c[7] === 'middle')).toBe(true);
    // One clip per column over the redrawn rows' cells, balanced save/restore.
    expect(calls.filter((c) => c[0] === 'clip')).toHaveLength(4);
    expect(calls.filter((c) => c[0] === 'rect')[0]).toEqual(['rect', 58, 2, 100, 20]);
    expect(calls.filter((c) => c[0] === 'save').length).toBe(calls.filter((c) => c[0] === 'restore').length);
  });

  it('scales the depth bars to the deepest visible size: bids from the right of their cell, asks from the left', () => {
    const rows = ladderRows(
      book(
        [
          [499_000n, 2_000_000n],
          [498_000n, 2_000_000n],
        ],
        [[501_000n, 1_000_000n]],
      ),
      PRICES,
      1,
    );
    const { ctx, calls } = recorder();
    new LadderPainter(ctx).paint(rows, max(rows), geometry);
    const bars = calls.filter((c) => c[0] === 'fillRect');
    // Deepest is the bids' 4 at 49.8¢: full width; 2 is half; the asks' 1 is a quarter.
    expect(bars).toContainEqual(['fillRect', 'upSoft', 58, 84, 100, 15]);
    expect(bars).toContainEqual(['fillRect', 'upSoft', 108, 64, 50, 15]);
    expect(bars).toContainEqual(['fillRect', 'downSoft', 428, 24, 25, 15]);
    expect(bars).toContainEqual(['fillRect', 'downSoft', 428, 4, 25, 15]);
    expect(bars.filter((c) => c[1] === 'downSoft')).toHaveLength(2);
  });

  it('redraws only the rows that changed, and everything when the deepest size or the geometry changes', () => {
    const first = ladderRows(book([[499_000n, 2_000_000n]], [[501_000n, 2_000_000n]]), PRICES, 1);
    const { ctx, calls } = recorder();
    const painter = new LadderPainter(ctx);
    painter.paint(first, max(first), geometry);

    // 50.1¢ ask 2 → 1 with a new bid of 1 at 50.0¢: the 50.1 and 50.0 rows change, and the bids' 3
    // becomes the deepest, so every bar is rescaled.
    const second = reuseRows(
      ladderRows(
        book(
          [
            [500_000n, 1_000_000n],
            [499_000n, 2_000_000n],
          ],
          [[501_000n, 2_000_000n]],
        ),
        PRICES,
        1,
      ),
      first,
    );
    calls.length = 0;
    expect(painter.paint(second, max(second), geometry)).toBe(5);
    expect(calls[0]).toEqual(['clearRect', 0, 0, 600, 104]);

    // Same deepest size, the ask at 50.1¢ shrinks: the 50.2 and 50.1 bands (ask, depth) alone are
    // cleared and drawn.
    const third = reuseRows(
      ladderRows(
        book(
          [
            [500_000n, 1_000_000n],
            [499_000n, 2_000_000n],
          ],
          [[501_000n, 1_500_000n]],
        ),
        PRICES,
        1,
      ),
      second,
    );
    expect(max(third)).toBe(max(second));
    calls.length = 0;
    expect(painter.paint(third, max(third), geometry)).toBe(2);
    expect(calls.filter((c) => c[0] === 'clearRect')).toEqual([
      ['clearRect', 0, 2, 600, 20],
      ['clearRect', 0, 22, 600, 20],
    ]);

    // Nothing changed: nothing drawn.
    calls.length = 0;
    expect(painter.paint(third, max(third), geometry)).toBe(0);
    expect(calls.filter((c) => c[0] === 'fillText' || c[0] === 'fillRect' || c[0] === 'clearRect')).toEqual([]);

    // A new geometry (resize, theme) or an invalidation repaints everything.
    expect(painter.paint(third, max(third), { ...geometry, font: '13px mono' })).toBe(5);
    painter.invalidate();
    expect(painter.paint(third, max(third), { ...geometry, font: '13px mono' })).toBe(5);
  });

  it('shows nothing for an empty size, thousands separators for large ones', () => {
    expect(sizeText(0n)).toBe('');
    expect(sizeText(1_234_500_000n)).toBe('1,234.5');
  });
});

describe('the fair-value mark', () => {
  const rows = ladderRows(book([[499_000n, 2_000_000n]], [[501_000n, 2_000_000n]]), PRICES, 1);

  it('falls in the row nearest the fair value, or none outside the rows', () => {
    expect(fairRowIndex(rows, 500_000n)).toBe(2);
    expect(fairRowIndex(rows, 500_400n)).toBe(2);
    expect(fairRowIndex(rows, 500_500n)).toBe(1); // halfway: the upper row
    expect(fairRowIndex(rows, 497_500n)).toBe(4);
    expect(fairRowIndex(rows, 497_400n)).toBe(-1);
    expect(fairRowIndex(rows, 502_600n)).toBe(-1);
    expect(fairRowIndex(rows, null)).toBe(-1);
    expect(fairRowIndex([], 500_000n)).toBe(-1);
  });

  it('is drawn in the fair row, inside the edges of its price cell, in the fair colour', () => {
    const { ctx, calls } = recorder();
    new LadderPainter(ctx).paint(rows, max(rows), geometry, 500_000n);
    expect(calls.filter((c) => c[0] === 'fill')).toEqual([['fill', 'fairViolet']]);
    const points = calls.filter((c) => c[0] === 'moveTo' || c[0] === 'lineTo');
    // Row 2's band is 42..62, its cell centred at 51.5; the price cell spans 258..328.
    expect(points.every((c) => (c[2] as number) >= 42 && (c[2] as number) <= 62)).toBe(true);
    expect(points.every((c) => (c[1] as number) >= 258 && (c[1] as number) <= 328)).toBe(true);
    expect(points[0]).toEqual(['moveTo', 260, 47.5]);
    expect(points[3]).toEqual(['moveTo', 326, 47.5]);
  });

  it('moving redraws the row it left and the row it entered, and nothing else', () => {
    const { ctx, calls } = recorder();
    const painter = new LadderPainter(ctx);
    painter.paint(rows, max(rows), geometry, 500_000n);
    calls.length = 0;
    expect(painter.paint(rows, max(rows), geometry, 500_200n)).toBe(0); // same row
    expect(painter.paint(rows, max(rows), geometry, 501_000n)).toBe(2);
    expect(calls.filter((c) => c[0] === 'clearRect')).toEqual([
      ['clearRect', 0, 22, 600, 20],
      ['clearRect', 0, 42, 600, 20],
    ]);
    expect(calls.filter((c) => c[0] === 'fill')).toHaveLength(1);
    // Gone from the rows (unknown, or off the ladder): its row is cleared and nothing marks.
    calls.length = 0;
    expect(painter.paint(rows, max(rows), geometry, null)).toBe(1);
    expect(calls.filter((c) => c[0] === 'fill')).toEqual([]);
  });
});
