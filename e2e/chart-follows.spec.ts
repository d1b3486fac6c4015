/**
 * A live line chart keeps its newest second in view when one series' gap (a whitespace point) makes
 * the time point another series then fills: the contract chart's fair line is whitespace until the
 * oracle has sent enough prices, and the mid is whitespace while one side of the book is empty. With
 * lightweight-charts' default axis the chart stopped scrolling at the first such second and stood
 * still while the book moved on. Played here with the real library in Chromium, under the app's CSP,
 * with the axis options the app uses (src/renderer/lib/live-time-scale.ts) and, as the control, without.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LIVE_TIME_SCALE } from '../src/renderer/lib/live-time-scale';
import { serveDirectory, type StaticServer } from './static-server';

let dir: string;
let server: StaticServer;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chart-follows-'));
  await copyFile(
    resolve('node_modules/lightweight-charts/dist/lightweight-charts.standalone.production.js'),
    join(dir, 'charts.js'),
  );
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><body style="margin:0"><div id="box" style="width:320px;height:200px"></div><script src="charts.js"></script></body></html>',
  );
  server = await serveDirectory(dir);
});

test.afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The DOM surface of the page script (the e2e tsconfig has no DOM library). */
interface ChartsGlobal {
  LightweightCharts: {
    createChart(box: unknown, options: unknown): ChartApi;
    LineSeries: unknown;
  };
  document: { getElementById(id: string): unknown };
}
interface ChartApi {
  addSeries(kind: unknown): { update(point: { time: number; value?: number }): void };
  timeScale(): { getVisibleLogicalRange(): { from: number; to: number } | null };
}

/**
 * Sixty seconds of a mid line and a fair line where the fair line is whitespace for the first half and
 * reaches each new second before the mid does (as when its effect runs first): how far the chart's
 * visible range ends behind the newest point, in points.
 */
async function lagAfterSixtySeconds(page: Page, timeScale: object): Promise<number> {
  return page.evaluate((options) => {
    const g = globalThis as unknown as ChartsGlobal;
    const chart = g.LightweightCharts.createChart(g.document.getElementById('box'), {
      width: 320,
      height: 200,
      timeScale: options,
    });
    const mid = chart.addSeries(g.LightweightCharts.LineSeries);
    const fair = chart.addSeries(g.LightweightCharts.LineSeries);
    const start = 1_800_000_000;
    for (let i = 0; i < 60; i++) {
      const time = start + i;
      if (i < 30) fair.update({ time });
      else fair.update({ time, value: 50 + (i % 7) });
      mid.update({ time, value: 40 + (i % 11) });
    }
    const range = chart.timeScale().getVisibleLogicalRange();
    return range === null ? Infinity : 59 - range.to;
  }, timeScale);
}

test('the chart follows its newest second when a value fills another series’ gap', async ({ page }) => {
  await page.goto(server.url);
  expect(await lagAfterSixtySeconds(page, LIVE_TIME_SCALE)).toBeLessThanOrEqual(0.5);
});

test('control: with the library’s default axis the same data leaves the chart behind', async ({ page }) => {
  // If this starts to pass, lightweight-charts changed its default and the option may go.
  await page.goto(server.url);
  expect(await lagAfterSixtySeconds(page, { timeVisible: true, secondsVisible: true })).toBeGreaterThan(10);
});
