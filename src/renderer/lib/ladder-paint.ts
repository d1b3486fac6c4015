/**
 * Paints the ladder's moving numbers (sizes, cumulative depth and depth bars) and the fair-value
 * mark on one canvas laid over the row elements. The rows stay in the DOM for clicks, focus, keyboard and screen readers,
 * but a book update no longer restyles, lays out or repaints them: it redraws the changed rows'
 * bands of the canvas. Where things go is measured from the DOM (`measureLadder`), so the CSS
 * stays the one source of column widths, fonts and colours.
 */
import { formatSize } from './format';
import { barPercent, type LadderRow } from './ladder';

/** The part of a 2D context the painter uses (a recording fake in unit tests). */
export type LadderContext = Pick<
  CanvasRenderingContext2D,
  | 'clearRect'
  | 'fillRect'
  | 'fillText'
  | 'save'
  | 'restore'
  | 'beginPath'
  | 'rect'
  | 'clip'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'fill'
  | 'fillStyle'
  | 'font'
  | 'textAlign'
  | 'textBaseline'
>;

/** A column's cells, in CSS pixels from the canvas's left edge. */
export interface LadderColumn {
  readonly x: number;
  readonly width: number;
  /** Right padding: text ends this far inside the cell, as the DOM text did. */
  readonly padRight: number;
  readonly color: string;
}

export interface LadderGeometry {
  /** Canvas size in CSS pixels. */
  readonly width: number;
  readonly height: number;
  /** Each row's band, in CSS pixels from the canvas's top edge (row i of the `rows` array). */
  readonly rows: readonly { readonly top: number; readonly height: number }[];
  /** The cells' box inside a row: bars are inset 2px from it, text is centred on it. */
  readonly cellTop: number;
  readonly cellHeight: number;
  readonly font: string;
  readonly cumBid: LadderColumn;
  readonly bid: LadderColumn;
  readonly ask: LadderColumn;
  readonly cumAsk: LadderColumn;
  readonly bidBar: string;
  readonly askBar: string;
  /** The price column, where the fair-value mark goes, and the mark's colour (`--fair`). */
  readonly price: LadderColumn;
  readonly fair: string;
}

type Field = 'cumBid' | 'bid' | 'ask' | 'cumAsk';
const FIELDS: readonly Field[] = ['cumBid', 'bid', 'ask', 'cumAsk'];

/** The text a size cell shows: empty for nothing resting, as before. */
export function sizeText(size: bigint): string {
  return size > 0n ? formatSize(size) : '';
}

/**
 * The row the fair value falls in (rows are high to low, a step apart), or -1 when it is unknown or
 * outside the rows shown. Halfway between two rows it is the upper one.
 */
export function fairRowIndex(rows: readonly LadderRow[], fair: bigint | null): number {
  if (fair === null || rows.length === 0) return -1;
  const step = rows.length > 1 ? rows[0]!.price - rows[1]!.price : 1n;
  for (let i = 0; i < rows.length; i++) {
    const gap = rows[i]!.price - fair;
    if (2n * (gap < 0n ? -gap : gap) <= step) return i;
  }
  return -1;
}

export class LadderPainter {
  private drawnRows: readonly LadderRow[] = [];
  private drawnMax = -1n;
  private drawnGeometry: LadderGeometry | null = null;
  private drawnFair = -1;

  constructor(private readonly ctx: LadderContext) {}

  /** Forget what is on the canvas (after a resize cleared it). */
  invalidate(): void {
    this.drawnGeometry = null;
  }

  /**
   * Brings the canvas up to `rows` and returns how many rows it redrew. Only rows that are new objects are redrawn (reuseRows keeps
   * unchanged rows as the same objects); a new deepest size rescales every bar, so it redraws all.
   * The fair-value mark (`fair`, micro-dollars) moving redraws the row it left and the row it entered.
   */
  paint(rows: readonly LadderRow[], maxDepth: bigint, g: LadderGeometry, fair: bigint | null = null): number {
    const ctx = this.ctx;
    const full = g !== this.drawnGeometry || maxDepth !== this.drawnMax || rows.length !== this.drawnRows.length;
    const fairIndex = fairRowIndex(rows, fair);
    const dirty: number[] = [];
    for (let i = 0; i < rows.length && i < g.rows.length; i++) {
      if (
        full ||
        rows[i] !== this.drawnRows[i] ||
        (fairIndex !== this.drawnFair && (i === fairIndex || i === this.drawnFair))
      )
        dirty.push(i);
    }
    if (full) ctx.clearRect(0, 0, g.width, g.height);
    else for (const i of dirty) ctx.clearRect(0, g.rows[i]!.top, g.width, g.rows[i]!.height);

    // Bars under the numbers, as the cells' backgrounds were: bids grow from the right edge of
    // their cell towards the price, asks from the left edge away from it.
    const barTop = g.cellTop + 2;
    const barHeight = Math.max(0, g.cellHeight - 4);
    for (const i of dirty) {
      const row = rows[i]!;
      const top = g.rows[i]!.top + barTop;
      const bidWidth = (g.cumBid.width * barPercent(row.cumBid, maxDepth)) / 100;
      if (bidWidth > 0) {
        ctx.fillStyle = g.bidBar;
        ctx.fillRect(g.cumBid.x + g.cumBid.width - bidWidth, top, bidWidth, barHeight);
      }
      const askWidth = (g.cumAsk.width * barPercent(row.cumAsk, maxDepth)) / 100;
      if (askWidth > 0) {
        ctx.fillStyle = g.askBar;
        ctx.fillRect(g.cumAsk.x, top, askWidth, barHeight);
      }
    }

    // Numbers, one column at a time under one clip: a size wider than its cell is cut at the
    // cell, never drawn over its neighbour.
    ctx.font = g.font;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const field of FIELDS) {
      const col = g[field];
      ctx.save();
      ctx.beginPath();
      for (const i of dirty) ctx.rect(col.x, g.rows[i]!.top, col.width, g.rows[i]!.height);
      ctx.clip();
      ctx.fillStyle = col.color;
      for (const i of dirty) {
        const text = sizeText(rows[i]![field]);
        if (text !== '')
          ctx.fillText(text, col.x + col.width - col.padRight, g.rows[i]!.top + g.cellTop + g.cellHeight / 2);
      }
      ctx.restore();
    }

    if (fairIndex >= 0 && fairIndex < g.rows.length && dirty.includes(fairIndex)) this.markFair(g, fairIndex);

    this.drawnRows = rows;
    this.drawnMax = maxDepth;
    this.drawnGeometry = g;
    this.drawnFair = fairIndex;
    return dirty.length;
  }

  /** Two small triangles pointing in at the price from the edges of its cell: "▸ 52.3¢ ◂". */
  private markFair(g: LadderGeometry, i: number): void {
    const ctx = this.ctx;
    const mid = g.rows[i]!.top + g.cellTop + g.cellHeight / 2;
    const half = Math.max(2, Math.min(4, g.cellHeight / 2 - 3));
    const left = g.price.x + 2;
    const right = g.price.x + g.price.width - 2;
    ctx.fillStyle = g.fair;
    ctx.beginPath();
    ctx.moveTo(left, mid - half);
    ctx.lineTo(left + half * 1.5, mid);
    ctx.lineTo(left, mid + half);
    ctx.closePath();
    ctx.moveTo(right, mid - half);
    ctx.lineTo(right - half * 1.5, mid);
    ctx.lineTo(right, mid + half);
    ctx.closePath();
    ctx.fill();
  }
}

/**
 * Reads the geometry from the laid-out DOM: the rows under `rowsEl`, the first row's four size
 * cells and its price cell for the columns, their computed font and colours, the bar colours
 * (`--bar`) and the fair-value mark's (`--fair`).
 * Run on mount, on resize and on a theme change, never per frame.
 */
export function measureLadder(rowsEl: HTMLElement, canvas: HTMLCanvasElement): LadderGeometry | null {
  const origin = canvas.getBoundingClientRect();
  const rowEls = rowsEl.querySelectorAll<HTMLElement>('[data-price]');
  const first = rowEls[0];
  if (first === undefined || origin.width === 0 || origin.height === 0) return null;
  const cell = (selector: string): HTMLElement | null => first.querySelector<HTMLElement>(selector);
  const cells = {
    cumBid: cell('.cum.bid'),
    bid: cell('.cell.bid'),
    ask: cell('.cell.ask'),
    cumAsk: cell('.cum.ask'),
    price: cell('.p'),
  };
  if (!cells.cumBid || !cells.bid || !cells.ask || !cells.cumAsk || !cells.price) return null;
  const column = (el: HTMLElement): LadderColumn => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {
      x: r.left - origin.left,
      width: r.width,
      padRight: parseFloat(style.paddingRight) || 0,
      color: style.color,
    };
  };
  const firstRect = first.getBoundingClientRect();
  const bidRect = cells.bid.getBoundingClientRect();
  return {
    width: origin.width,
    height: origin.height,
    rows: Array.from(rowEls, (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top - origin.top, height: r.height };
    }),
    cellTop: bidRect.top - firstRect.top,
    cellHeight: bidRect.height,
    font: getComputedStyle(cells.bid).font,
    cumBid: column(cells.cumBid),
    bid: column(cells.bid),
    ask: column(cells.ask),
    cumAsk: column(cells.cumAsk),
    bidBar: getComputedStyle(cells.cumBid).getPropertyValue('--bar').trim(),
    askBar: getComputedStyle(cells.cumAsk).getPropertyValue('--bar').trim(),
    price: column(cells.price),
    fair: getComputedStyle(cells.price).getPropertyValue('--fair').trim(),
  };
}
