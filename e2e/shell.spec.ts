/**
 * Smoke test of the built renderer in Chromium under the production CSP: the app shell
 * renders, navigation works, nothing violates the policy, and the page behaves both
 * without the bridge (plain browser) and with one.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PRODUCTION_CSP } from '../src/main/window/csp';
import { serveDirectory, type StaticServer } from './static-server';

const RENDERER_DIR = resolve('out/renderer');
const SCREENS_DIR = resolve('test-results/screens');
const SECTIONS = ['Markets', 'Trade', 'Orders', 'Agents', 'Funds', 'Keys', 'Offline signing', 'Settings'];

let server: StaticServer;

test.beforeAll(async () => {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('out/renderer is missing: run `npx electron-vite build` first (`npm test` does).');
  }
  mkdirSync(SCREENS_DIR, { recursive: true });
  server = await serveDirectory(RENDERER_DIR);
});

test.afterAll(async () => {
  await server?.close();
});

/** Collects every console error, page error and CSP violation the page produces. */
function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /content security policy/i.test(message.text())) {
      problems.push(`console.${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

const browserScript = (name: string): { path: string } => ({ path: resolve('e2e/browser', name) });

async function recordedViolations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__cspViolations');
}

test('app shell renders under the production CSP without a bridge', async ({ page }) => {
  const problems = watchForProblems(page);
  await page.addInitScript(browserScript('record-csp-violations.js'));

  const response = await page.goto(server.url);
  expect(response?.headers()['content-security-policy']).toBe(PRODUCTION_CSP);
  await expect(page).toHaveTitle('Exchange Terminal');

  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav).toBeVisible();
  for (const label of SECTIONS) await expect(nav.getByRole('button', { name: label })).toBeVisible();
  await expect(page.getByTestId('status-bar')).toBeVisible();

  // No window.terminal: a clear "not connected" state instead of a crash.
  await expect(page.getByTestId('not-connected')).toContainText('Not connected to the app');
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'absent');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Markets');
  await page.screenshot({ path: resolve(SCREENS_DIR, 'shell.png') });

  await nav.getByRole('button', { name: 'Trade' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trade');
  await expect(nav.getByRole('button', { name: 'Trade' })).toHaveAttribute('aria-current', 'page');

  await page.keyboard.press('Alt+6');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keys');

  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveClass(/theme-light/);
  await page.screenshot({ path: resolve(SCREENS_DIR, 'shell-light.png') });

  expect(await recordedViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('app shell shows the core as connected when the bridge answers', async ({ page }) => {
  const problems = watchForProblems(page);
  await page.addInitScript(browserScript('record-csp-violations.js'));
  await page.addInitScript(browserScript('fake-terminal.js'));

  await page.goto(server.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('not-connected')).toHaveCount(0);
  const statusBar = page.getByTestId('status-bar');
  await expect(statusBar).toContainText('v0.1.0');
  await expect(statusBar).toContainText('Devnet not started');
  await page.screenshot({ path: resolve(SCREENS_DIR, 'shell-connected.png') });

  expect(await recordedViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});
