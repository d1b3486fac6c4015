/**
 * Page-level figures of own orders and start-up (issue 21, item 2), measured in the page with
 * performance.now() on every frame (requestAnimationFrame), for two builds of the renderer in the
 * same run on the same core and devnet: the one before the change (a git ref, built here into a
 * temporary folder) and the current one.
 *
 *   key → on screen      the key press to the first frame where the order shows in open orders
 *                        (a window-side "sending" row, or main's row where the build has no echo)
 *   key → Mine column    … to the first frame where the ladder's Mine cell at its price has grown
 *   key → acknowledged   … to the first frame showing the exchange's answer (a "resting" row, or main's row)
 *   page load → ladder   navigation start to the first frame with a live ladder showing quotes
 *
 * The same DOM conditions hold in both builds (open-orders rows, the Mine cell's text, the ladder's
 * cells), so each figure means the same thing before and after.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { serveDirectory } from '../e2e/static-server';
import { pct, sortedCopy } from './ui-shared';

export interface PageFigures {
  keyToScreen: number[];
  keyToMine: number[];
  keyToAck: number[];
  /** From the order's bytes leaving the core to the exchange's answer reaching it: the exchange's own time. */
  wireToAnswer: number[];
  /** From the answer reaching main to main emitting it to the window: main's own part. */
  answerToEmit: number[];
  /** From main's event to the answer on screen: the hop to the window and a frame. */
  emitToAck: number[];
  /** From main's event to the page's listener hearing it: the hop to the window (this harness's, not Electron IPC). */
  emitToPage: number[];
  /** From the page hearing the answer to the first frame showing it: the renderer's own part. */
  pageToAck: number[];
  loadToLadder: number[];
}

/** The renderer of `ref` built into a temporary folder (its `out/renderer`), and how to remove it. */
export function buildRendererAt(ref: string): { dir: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'ui-bench-baseline-'));
  execFileSync('bash', ['-c', `git archive --format=tar ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(root)}`]);
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  const t0 = Date.now();
  execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`  built the renderer of ${ref} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const dir = join(root, 'out/renderer');
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`building ${ref} left no out/renderer`);
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

interface Sample {
  screen: number;
  mine: number;
  ack: number;
  /** When the page's listener heard orderAnswered (epoch ms). */
  heard: number;
}

/** Installs a per-frame watcher for the next order at `price`; the page keeps its first times. */
async function watchNextOrder(page: Page, price: string): Promise<void> {
  await page.evaluate((at: string) => {
    type El = { textContent: string | null };
    const w = globalThis as unknown as {
      __order: { screen: number; mine: number; ack: number; heard: number };
      __heardOff?: () => void;
      terminal: { on(event: string, listener: () => void): () => void };
      document: { querySelectorAll(s: string): { length: number }; querySelector(s: string): El | null };
      requestAnimationFrame(f: (t: number) => void): void;
      performance: { timeOrigin: number; now(): number };
    };
    const rows = (): number =>
      w.document.querySelectorAll('[data-testid="open-orders"] tbody tr:not(:has(td.empty))').length;
    const mainRows = (): number =>
      w.document.querySelectorAll(
        '[data-testid="open-orders"] tbody tr:not([data-testid="own-order-echo"]):not(:has(td.empty))',
      ).length;
    const mine = (): string =>
      w.document.querySelector(`[data-testid="ladder"] [data-price="${at}"] .own`)?.textContent ?? '';
    const base = { rows: rows(), main: mainRows(), mine: mine() };
    const o = { screen: NaN, mine: NaN, ack: NaN, heard: NaN };
    w.__order = o;
    // A listener beside the app's, through the same bridge: when the answer reached the page.
    w.__heardOff?.();
    w.__heardOff = w.terminal.on('orderAnswered', () => {
      if (Number.isNaN(o.heard)) o.heard = w.performance.timeOrigin + w.performance.now();
    });
    const started = w.performance.now();
    const frame = (): void => {
      const t = w.performance.timeOrigin + w.performance.now();
      if (Number.isNaN(o.screen) && rows() > base.rows) o.screen = t;
      if (Number.isNaN(o.mine) && mine() !== base.mine) o.mine = t;
      const resting = w.document.querySelectorAll('[data-testid="own-order-echo"][data-state="resting"]').length > 0;
      if (Number.isNaN(o.ack) && (resting || mainRows() > base.main)) o.ack = t;
      const done = !Number.isNaN(o.screen) && !Number.isNaN(o.mine) && !Number.isNaN(o.ack);
      if (!done && w.performance.now() - started < 10_000) w.requestAnimationFrame(frame);
    };
    w.requestAnimationFrame(frame);
  }, price);
}

/** Presses "B" (join the bid at `price`) `presses` times after `warmup`, each waiting for main's row. */
export async function measureOwnOrders(
  page: Page,
  price: string,
  presses: number,
  warmup: number,
  cancelAll: () => Promise<unknown>,
  last: () => { wire: number; answer: number; emitted: number },
): Promise<Omit<PageFigures, 'loadToLadder'>> {
  const out = {
    keyToScreen: [] as number[],
    keyToMine: [] as number[],
    keyToAck: [] as number[],
    wireToAnswer: [] as number[],
    answerToEmit: [] as number[],
    emitToAck: [] as number[],
    emitToPage: [] as number[],
    pageToAck: [] as number[],
  };
  for (let i = 0; i < warmup + presses; i++) {
    await watchNextOrder(page, price);
    await page.keyboard.press('b');
    // One call that waits in the page (the watcher's frames), not a poll from here: calls into the
    // page share its channel with the events the harness delivers, and would delay them.
    const s = await page.evaluate(
      () =>
        new Promise<Sample>((done) => {
          const w = globalThis as unknown as {
            __order: Sample;
            requestAnimationFrame(f: () => void): void;
            performance: { now(): number };
          };
          const until = w.performance.now() + 10_000;
          const check = (): void => {
            const o = w.__order;
            const all = !Number.isNaN(o.screen) && !Number.isNaN(o.mine) && !Number.isNaN(o.ack);
            if (all || w.performance.now() > until) done({ ...o });
            else w.requestAnimationFrame(check);
          };
          check();
        }),
    );
    // Main's own row, before the next press (so each press starts from a settled screen).
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
        ).document.querySelectorAll('[data-testid="own-order-echo"]').length === 0,
      undefined,
      { timeout: 15_000 },
    );
    const key = (await page.evaluate(() => (globalThis as unknown as { __keys: number[] }).__keys.at(-1))) ?? NaN;
    if (i >= warmup) {
      out.keyToScreen.push(s.screen - key);
      out.keyToMine.push(s.mine - key);
      out.keyToAck.push(s.ack - key);
      const { wire, answer, emitted } = last();
      out.wireToAnswer.push(answer - wire);
      out.answerToEmit.push(emitted - answer);
      out.emitToAck.push(s.ack - emitted);
      out.emitToPage.push(s.heard - emitted);
      out.pageToAck.push(s.ack - s.heard);
    }
    if (i % 25 === 24) {
      await cancelAll();
      await page.waitForFunction(
        () =>
          (
            globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
          ).document.querySelectorAll('[data-testid="open-orders"] tbody tr:not(:has(td.empty))').length === 0,
        undefined,
        { timeout: 15_000 },
      );
    }
  }
  return out;
}

/**
 * Reloads `url` `loads` times; each time the page opens Trade as soon as it can and waits for a live
 * ladder with quotes. Nothing is closed between loads: the core closes what a page that went away
 * had opened (AppCore.windowGone, told by the harness as main's page-lifetime.ts tells it).
 */
export async function measurePageLoad(page: Page, url: string, loads: number): Promise<number[]> {
  const times: number[] = [];
  const tell = (m: { text(): string }): void => {
    if (m.text().startsWith('[bench]')) console.log(`  ${m.text()}`);
  };
  page.on('console', tell);
  for (let i = 0; i < loads + 1; i++) {
    await page.goto(url);
    const ms = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          type Node = { click(): void; textContent: string | null };
          const w = globalThis as unknown as {
            document: { querySelector(s: string): Node | null; querySelectorAll(s: string): Node[] };
            requestAnimationFrame(f: () => void): void;
            performance: { now(): number };
          };
          let clicked = false;
          const frame = (): void => {
            if (!clicked) {
              const trade = [...w.document.querySelectorAll('nav[aria-label="Sections"] button')].find((b) =>
                (b.textContent ?? '').includes('Trade'),
              );
              if (trade) {
                trade.click();
                clicked = true;
              }
            }
            const quoted = w.document.querySelector('[data-testid="ladder"] .cell.bid[aria-label*=" bid"]');
            const blocked = w.document.querySelector('[data-testid="book-blocked"]');
            if (quoted && !blocked) return done(w.performance.now());
            // A load that shows no live ladder in 20 s counts as such (Infinity), not as a bench failure.
            if (w.performance.now() > 20_000) {
              const g = globalThis as unknown as { __missed?: string[] };
              const ladder = w.document.querySelector('[data-testid="ladder"]');
              g.__missed = [
                ...(g.__missed ?? []),
                `${ladder ? 'ladder' : 'no ladder'}; blocked: ${blocked?.textContent ?? 'no'}; heading: ${w.document.querySelector('h1')?.textContent ?? ''}; bids: ${w.document.querySelectorAll('[data-testid="ladder"] .cell.bid').length}`,
              ];
              console.log(`[bench] no live ladder: ${g.__missed.at(-1)}`);
              return done(Infinity);
            }
            w.requestAnimationFrame(frame);
          };
          w.requestAnimationFrame(frame);
        }),
    );
    if (i > 0) times.push(ms); // the first load warms the caches
  }
  page.off('console', tell);
  return times;
}

export function summary(label: string, xs: readonly number[]): string {
  const s = sortedCopy(xs);
  const missed = xs.filter((x) => !Number.isFinite(x)).length;
  return `${label}: p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${(s.at(-1) ?? NaN).toFixed(1)} ms (n=${s.length}${missed ? `, ${missed} never shown` : ''})`;
}

export { serveDirectory };
