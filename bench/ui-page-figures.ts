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
import { bridgeEventNames } from '../src/shared/bridge';
import { pct, sortedCopy } from './ui-shared';

export interface PageFigures {
  keyToScreen: number[];
  /** The key press to the first frame whose ladder Mine column shows the order on its way (◌). */
  keyToMine: number[];
  /** Frames the page began after the keydown up to the one that showed ◌ (1 = the next frame). */
  framesToMine: number[];
  /** The same for the "sending…" row in open orders. */
  framesToScreen: number[];
  /** … to the first frame whose Mine cell at the order's row shows it as resting in the book (●). */
  keyToMineBook: number[];
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
  /** Presses whose order the exchange or main refused (left out of the figures). */
  rejected: number;
  loadToLadder: number[];
  /** Page load → the status bar's connection reads connected. */
  loadToConnected: number[];
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
  book: number;
  ack: number;
  rejected: boolean;
  /** When the page's listener heard orderAnswered (epoch ms). */
  heard: number;
  /** Each frame the watcher saw, in order (epoch ms): which frame after the key showed ◌ and the row. */
  frames: number[];
}

/**
 * Installs a per-frame watcher for the next order; the page keeps its first times. The order's row
 * is wherever "B" joins the bid (with the bots on, their best bid moves): the first Mine cell that
 * turns to ◌ names it, and ● in that cell is the book (or the answer) showing it resting.
 */
async function watchNextOrder(page: Page): Promise<void> {
  await page.evaluate(() => {
    type El = { textContent: string | null; closest(s: string): { getAttribute(n: string): string | null } | null };
    const w = globalThis as unknown as {
      __order: {
        screen: number;
        mine: number;
        book: number;
        ack: number;
        heard: number;
        rejected: boolean;
        frames: number[];
      };
      __heardOff?: () => void;
      terminal: { on(event: string, listener: () => void): () => void };
      document: { querySelectorAll(s: string): ArrayLike<El>; querySelector(s: string): El | null };
      requestAnimationFrame(f: (t: number) => void): void;
      performance: { timeOrigin: number; now(): number };
    };
    const rows = (): number =>
      w.document.querySelectorAll('[data-testid="open-orders"] tbody tr:not(:has(td.empty))').length;
    const mainRows = (): number =>
      w.document.querySelectorAll(
        '[data-testid="open-orders"] tbody tr:not([data-testid="own-order-echo"]):not(:has(td.empty))',
      ).length;
    const ownCells = (): El[] => Array.from(w.document.querySelectorAll('[data-testid="ladder"] [data-price] .own'));
    // Each row's Mine text before the press: the order's row is the first whose text changes to ◌, or
    // straight to ● when the answer reached the page within the frame that would have shown ◌.
    const textBefore = new Map(
      ownCells().map((c) => [c.closest('[data-price]')?.getAttribute('data-price'), c.textContent ?? '']),
    );
    const base = { rows: rows(), main: mainRows() };
    const o = { screen: NaN, mine: NaN, book: NaN, ack: NaN, heard: NaN, rejected: false, frames: [] as number[] };
    let at: string | null = null;
    w.__order = o;
    // A listener beside the app's, through the same bridge: when the answer reached the page.
    w.__heardOff?.();
    w.__heardOff = w.terminal.on('orderAnswered', () => {
      if (Number.isNaN(o.heard)) o.heard = w.performance.timeOrigin + w.performance.now();
    });
    const started = w.performance.now();
    const frame = (): void => {
      const t = w.performance.timeOrigin + w.performance.now();
      if (Number.isNaN(o.mine) || Number.isNaN(o.screen)) o.frames.push(t);
      if (Number.isNaN(o.screen) && rows() > base.rows) o.screen = t;
      if (at === null) {
        const changed = (c: El): boolean =>
          (c.textContent ?? '') !== (textBefore.get(c.closest('[data-price]')?.getAttribute('data-price')) ?? '');
        const cells = ownCells().filter(changed);
        const cell =
          cells.find((c) => (c.textContent ?? '').includes('◌')) ??
          cells.find((c) => (c.textContent ?? '').includes('●'));
        if (cell) {
          o.mine = t;
          at = cell.closest('[data-price]')?.getAttribute('data-price') ?? null;
        }
      }
      if (at !== null && Number.isNaN(o.book)) {
        const text = w.document.querySelector(`[data-testid="ladder"] [data-price="${at}"] .own`)?.textContent ?? '';
        if (text.includes('●')) o.book = t;
      }
      const resting = w.document.querySelectorAll('[data-testid="own-order-echo"][data-state="resting"]').length > 0;
      // Refused (a join that would cross by the time it arrived, a risk guard): no resting row or ● follows.
      if (w.document.querySelectorAll('[data-testid="own-order-echo"][data-state="rejected"]').length > 0)
        o.rejected = true;
      if (Number.isNaN(o.ack) && (resting || mainRows() > base.main)) o.ack = t;
      const done = o.rejected || (!Number.isNaN(o.screen) && !Number.isNaN(o.book) && !Number.isNaN(o.ack));
      if (!done && w.performance.now() - started < 10_000) w.requestAnimationFrame(frame);
    };
    w.requestAnimationFrame(frame);
  });
}

/** Presses "B" (join the bid at `price`) `presses` times after `warmup`, each waiting for main's row. */
export async function measureOwnOrders(
  page: Page,
  presses: number,
  warmup: number,
  cancelAll: () => Promise<unknown>,
  last: () => { wire: number; answer: number; emitted: number },
): Promise<Omit<PageFigures, 'loadToLadder' | 'loadToConnected'>> {
  const out = {
    keyToScreen: [] as number[],
    keyToMine: [] as number[],
    framesToMine: [] as number[],
    framesToScreen: [] as number[],
    keyToMineBook: [] as number[],
    rejected: 0,
    keyToAck: [] as number[],
    wireToAnswer: [] as number[],
    answerToEmit: [] as number[],
    emitToAck: [] as number[],
    emitToPage: [] as number[],
    pageToAck: [] as number[],
  };
  for (let i = 0; i < warmup + presses; i++) {
    await watchNextOrder(page);
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
            const all = o.rejected || (!Number.isNaN(o.screen) && !Number.isNaN(o.book) && !Number.isNaN(o.ack));
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
    if (i >= warmup && s.rejected) out.rejected++;
    // Never shown within 10 s counts as Infinity (the summaries say how many), never as NaN, which sorts anywhere.
    const seen = (x: number): number => (Number.isNaN(x) ? Infinity : x);
    if (i >= warmup && !s.rejected) {
      out.keyToScreen.push(seen(s.screen - key));
      out.keyToMine.push(seen(s.mine - key));
      // 1: the first frame that began after the keydown showed it; Infinity: never shown.
      const framesTo = (shown: number): number =>
        Number.isNaN(shown) ? Infinity : s.frames.filter((f) => f > key && f <= shown).length;
      out.framesToScreen.push(framesTo(s.screen));
      out.framesToMine.push(framesTo(s.mine));
      out.keyToMineBook.push(seen(s.book - key));
      out.keyToAck.push(seen(s.ack - key));
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
 * The page-load watcher, run in every document the page loads (an init script) but acting only while
 * measurePageLoad asks (sessionStorage flag): from the document's first script on, each frame it
 * opens Trade as soon as the button exists and notes the first frame where the status bar reads
 * connected and the first with a live ladder showing quotes (ms from navigation start).
 */
const LOAD_WATCHER = `(() => {
  if (sessionStorage.getItem('__benchLoad') !== '1') return;
  const firsts = (globalThis.__firsts = { connected: NaN, quoted: NaN, missed: '' });
  let clicked = false;
  const frame = () => {
    const t = performance.now();
    if (!clicked) {
      const trade = [...document.querySelectorAll('nav[aria-label="Sections"] button')].find((b) =>
        (b.textContent || '').includes('Trade'),
      );
      if (trade) {
        trade.click();
        clicked = true;
      }
    }
    if (Number.isNaN(firsts.connected) && document.querySelector('[data-testid="connection-status"][data-state="connected"]'))
      firsts.connected = t;
    const quoted = document.querySelector('[data-testid="ladder"] .cell.bid[aria-label*=" bid"]');
    const blocked = document.querySelector('[data-testid="book-blocked"]');
    if (Number.isNaN(firsts.quoted) && quoted && !blocked) firsts.quoted = t;
    if (!Number.isNaN(firsts.quoted) && !Number.isNaN(firsts.connected)) return;
    // A load that shows no live ladder in 20 s counts as such (Infinity), not as a bench failure.
    if (t > 20000) {
      const ladder = document.querySelector('[data-testid="ladder"]');
      firsts.missed = (ladder ? 'ladder' : 'no ladder') + '; blocked: ' + (blocked ? blocked.textContent : 'no') + '; bids: ' + document.querySelectorAll('[data-testid="ladder"] .cell.bid').length;
      if (Number.isNaN(firsts.quoted)) firsts.quoted = Infinity;
      if (Number.isNaN(firsts.connected)) firsts.connected = Infinity;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
const watched = new WeakSet<Page>();

/**
 * Reloads `url` `loads` times; each time the page opens Trade as soon as it can (LOAD_WATCHER) and
 * the first frames that show the status bar connected and a live ladder with quotes are taken.
 * Nothing is closed between loads: the core closes what a page that went away had opened
 * (AppCore.windowGone, told by the harness as main's page-lifetime.ts tells it).
 */
export async function measurePageLoad(
  page: Page,
  url: string,
  loads: number,
): Promise<{ loadToLadder: number[]; loadToConnected: number[] }> {
  if (!watched.has(page)) {
    await page.addInitScript({ content: LOAD_WATCHER });
    watched.add(page);
  }
  const loadToLadder: number[] = [];
  const loadToConnected: number[] = [];
  const flag = (on: boolean): Promise<void> =>
    page.evaluate((set) => {
      const store = (
        globalThis as unknown as {
          sessionStorage: { setItem(k: string, v: string): void; removeItem(k: string): void };
        }
      ).sessionStorage;
      if (set) store.setItem('__benchLoad', '1');
      else store.removeItem('__benchLoad');
    }, on);
  await flag(true);
  try {
    for (let i = 0; i < loads + 1; i++) {
      await page.goto(url);
      const firsts = await page.evaluate(
        () =>
          new Promise<{ connected: number; quoted: number; missed: string }>((done) => {
            const w = globalThis as unknown as {
              __firsts: { connected: number; quoted: number; missed: string };
              requestAnimationFrame(f: () => void): void;
            };
            const check = (): void => {
              const f = w.__firsts;
              if (!Number.isNaN(f.connected) && !Number.isNaN(f.quoted)) done({ ...f });
              else w.requestAnimationFrame(check);
            };
            check();
          }),
      );
      if (firsts.missed) console.log(`  [bench] no live ladder: ${firsts.missed}`);
      // The first load warms the caches.
      if (i > 0) {
        loadToLadder.push(firsts.quoted);
        loadToConnected.push(firsts.connected);
      }
    }
  } finally {
    await flag(false);
  }
  return { loadToLadder, loadToConnected };
}

/** Waits until the page's ladder shows a bid other than the one the bench rests (the bots are quoting). */
export async function waitForLiveQuotes(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll('[data-testid="ladder"] .cell.bid[aria-label*=" bid"]').length >= 3,
    undefined,
    { timeout: 60_000 },
  );
}

/**
 * Counts, from now, the bridge events the page receives (by name, through the same bridge as the
 * app's listeners) and its long tasks (> 50 ms, PerformanceObserver 'longtask').
 */
export async function installPageCounters(page: Page): Promise<void> {
  await page.evaluate(
    (names: string[]) => {
      const w = globalThis as unknown as {
        __counters: { since: number; events: Record<string, number>; longTasks: number[]; offs: (() => void)[] };
        terminal: { on(event: string, listener: () => void): () => void };
        performance: { now(): number };
        PerformanceObserver: new (f: (list: { getEntries(): { duration: number }[] }) => void) => {
          observe(o: { type: string; buffered: boolean }): void;
          disconnect(): void;
        };
      };
      for (const off of w.__counters?.offs ?? []) off();
      const c = {
        since: w.performance.now(),
        events: {} as Record<string, number>,
        longTasks: [] as number[],
        offs: [] as (() => void)[],
      };
      for (const name of names)
        c.offs.push(w.terminal.on(name, () => void (c.events[name] = (c.events[name] ?? 0) + 1)));
      const observer = new w.PerformanceObserver((list) => {
        for (const e of list.getEntries()) c.longTasks.push(e.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });
      c.offs.push(() => observer.disconnect());
      w.__counters = c;
    },
    [...bridgeEventNames],
  );
}

export async function readPageCounters(
  page: Page,
): Promise<{ seconds: number; events: Record<string, number>; longTasks: number[] }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      __counters: { since: number; events: Record<string, number>; longTasks: number[] };
      performance: { now(): number };
    };
    const c = w.__counters;
    return { seconds: (w.performance.now() - c.since) / 1000, events: { ...c.events }, longTasks: [...c.longTasks] };
  });
}

export function summary(label: string, xs: readonly number[]): string {
  const s = sortedCopy(xs);
  const missed = xs.filter((x) => !Number.isFinite(x)).length;
  return `${label}: p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${(s.at(-1) ?? NaN).toFixed(1)} ms (n=${s.length}${missed ? `, ${missed} never shown` : ''})`;
}

export { serveDirectory };
