/**
 * What the trade screen's line charts (contract price, oracle price) share: one look taken from the
 * theme's CSS tokens, and one life cycle. lightweight-charts draws on canvas and styles through the
 * CSSOM, so it runs under the window's CSP. Chart values are floats for drawing only.
 */
import { LIVE_TIME_SCALE } from './live-time-scale';
import {
  createChart,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';

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
  /**
   * Keeps the price axis's tick labels clear of the tags `series` put on it (their last values and
   * labelled price lines); the first series formats the labels.
   */
  clearTicksUnderTags(series: readonly ISeriesApi<SeriesType>[]): void;
  /** A tag may have moved (new data, a price line or a label shown or hidden): relabels the axis if one did. */
  refreshTicks(): void;
  /** Stops following the box, then removes the chart. */
  remove(): void;
}

/**
 * How near (px) a tick label's centre may come to a price tag's before the tag, drawn over it,
 * leaves part of the label showing around it: half a tag (17 px tall at 11 px type) and half a label.
 */
export const TAG_CLEARANCE_PX = 13;

/**
 * Tick labels for `prices`, blank where a price tag sits over them: lightweight-charts draws its tags
 * on top of the axis's labels, and a label a few pixels off would show half above or below the tag.
 */
export function ticksClearOfTags(
  prices: readonly number[],
  tags: readonly number[],
  rowOf: (price: number) => number | null,
  label: (price: number) => string,
  clearance = TAG_CLEARANCE_PX,
): string[] {
  const tagRows = tags.map(rowOf).filter((row): row is number => row !== null);
  return prices.map((price) => {
    const row = rowOf(price);
    return row !== null && tagRows.some((t) => Math.abs(t - row) < clearance) ? '' : label(price);
  });
}

/** The prices the series tag on the axis: each shown last value, each price line with its axis label. */
function tagPrices(series: readonly ISeriesApi<SeriesType>[]): number[] {
  const prices: number[] = [];
  for (const s of series) {
    const last = s.lastValueData(false);
    if (s.options().lastValueVisible && !last.noData) prices.push(last.price);
    for (const line of s.priceLines()) {
      const o = line.options();
      if (o.axisLabelVisible) prices.push(o.price);
    }
  }
  return prices;
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
    timeScale: LIVE_TIME_SCALE,
    rightPriceScale: { borderVisible: false },
  });
  let disposed = false;
  const observer = new ResizeObserver(([entry]) => {
    if (!disposed && entry) chart.resize(Math.floor(entry.contentRect.width), Math.floor(entry.contentRect.height));
  });
  observer.observe(container);
  let tagged: readonly ISeriesApi<SeriesType>[] = [];
  let tagRows = '';
  // Called by the chart whenever it lays out the axis's labels (its range or size changed).
  const tickLabels = (prices: readonly number[]): string[] => {
    const first = tagged[0];
    if (!first) return prices.map(String);
    const format = first.priceFormatter();
    return ticksClearOfTags(
      prices,
      tagPrices(tagged),
      (p) => first.priceToCoordinate(p),
      (p) => format.format(p),
    );
  };
  // The chart keeps its labels until its range changes; a tag that moved within the range asks again.
  const relabel = (): void => chart.applyOptions({ localization: { tickmarksPriceFormatter: tickLabels } });
  return {
    chart,
    clearTicksUnderTags(series) {
      tagged = series;
      relabel();
    },
    refreshTicks() {
      const first = tagged[0];
      if (disposed || !first) return;
      const rows = tagPrices(tagged)
        .map((p) => Math.round(first.priceToCoordinate(p) ?? -1))
        .join(',');
      if (rows === tagRows) return;
      tagRows = rows;
      relabel();
    },
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

/** A dashed level drawn across a chart (a working order's trigger, an oracle stop). */
export interface DashedLevel {
  value: number;
  colour: string;
  title: string;
}

/** The colour of a theme token (`--down`, `--up`…), read now. */
export function tokenColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim() || '#888888';
}

/** Draws each level as a dashed price line with its label on the axis; returns what removes them. */
export function drawDashedLevels(series: ISeriesApi<SeriesType>, levels: readonly DashedLevel[]): () => void {
  const lines = levels.map((l) =>
    series.createPriceLine({
      price: l.value,
      color: l.colour,
      lineStyle: LineStyle.Dashed,
      lineWidth: 1,
      title: l.title,
      axisLabelVisible: true,
    }),
  );
  return () => {
    for (const line of lines) series.removePriceLine(line);
  };
}
