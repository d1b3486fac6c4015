/**
 * What the trade screen's line charts (contract price, oracle price) share: one look taken from the
 * theme's CSS tokens, and one life cycle. lightweight-charts draws on canvas and styles through the
 * CSSOM, so it runs under the window's CSP. Chart values are floats for drawing only.
 */
import { createChart, type IChartApi, type UTCTimestamp } from 'lightweight-charts';

export interface ChartColours {
  text: string;
  grid: string;
  /** The chart's main line. */
  accent: string;
  /** Its second mark (last trade, strike). */
  warn: string;
  /** The fair value's line (`--fair`). */
  fair: string;
}

/** The current theme's colours (read again when the theme changes). */
export function chartColours(): ChartColours {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string): string => css.getPropertyValue(name).trim() || '#888888';
  return {
    text: read('--text-muted'),
    grid: read('--border'),
    accent: read('--accent'),
    warn: read('--warn'),
    fair: read('--fair'),
  };
}

/** Recolours the chart's text and grid; each chart recolours its own series. */
export function themeChart(chart: IChartApi | null, c: ChartColours): void {
  chart?.applyOptions({
    layout: { textColor: c.text },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
  });
}

export interface MountedChart {
  readonly chart: IChartApi;
  /** Stops following the box, then removes the chart. */
  remove(): void;
}

/**
 * A chart filling `container`. Sized by our own observer rather than `autoSize`: it is disconnected
 * before the chart is removed, so no resize callback ever reaches a disposed canvas when the screen changes.
 */
export function mountChart(container: HTMLElement): MountedChart {
  const c = chartColours();
  const chart = createChart(container, {
    width: container.clientWidth,
    height: container.clientHeight,
    layout: {
      background: { color: 'transparent' },
      textColor: c.text,
      fontFamily: getComputedStyle(document.body).fontFamily,
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    timeScale: { timeVisible: true, secondsVisible: true, borderVisible: false },
    rightPriceScale: { borderVisible: false },
  });
  let disposed = false;
  const observer = new ResizeObserver(([entry]) => {
    if (!disposed && entry) chart.resize(Math.floor(entry.contentRect.width), Math.floor(entry.contentRect.height));
  });
  observer.observe(container);
  return {
    chart,
    remove() {
      disposed = true;
      observer.disconnect();
      chart.remove();
    },
  };
}

/** The chart's time of a moment: whole seconds. */
export const toChartTime = (ms: number): UTCTimestamp => Math.floor(ms / 1000) as UTCTimestamp;

/** Of points in time order, the last of each second: the chart takes one point per time. */
export function lastPerSecond<P extends { time: UTCTimestamp }>(ordered: readonly P[]): P[] {
  return ordered.filter((p, i) => ordered[i + 1]?.time !== p.time);
}
