/**
 * The page's `window.terminal` is the SHIPPED preload bundle (out/preload/index.cjs), run with a
 * sandbox-like `require` that offers only `electron` (e2e/harness/install-terminal.ts): what the
 * preload exposes, that its own checks answer before anything reaches main, and that a bundle
 * which cannot load leaves the page without a bridge and says so.
 */
import { EVENT_CHANNEL_PREFIX, INVOKE_CHANNEL_PREFIX } from '../src/shared/bridge';
import { resolve } from 'node:path';
import { expect, invokeInPage, SCREENS_DIR, test } from './harness/fixture';
import { preloadInitScript, shippedPreload } from './harness/install-terminal';

test('window.terminal is the shipped preload: one frozen object, its own allowlist, nothing else exposed', async ({
  app,
  problems,
}) => {
  const shape = await app.evaluate(() => {
    const w = globalThis as unknown as Record<string, unknown>;
    const terminal = w['terminal'] as object;
    return {
      frozen: Object.isFrozen(terminal),
      keys: Object.keys(terminal).sort(),
      require: typeof w['require'],
      module: typeof w['module'],
      ipcRenderer: typeof w['ipcRenderer'],
      electron: typeof w['electron'],
    };
  });
  expect(shape).toEqual({
    frozen: true,
    keys: ['invoke', 'on'],
    require: 'undefined',
    module: 'undefined',
    ipcRenderer: 'undefined',
    electron: 'undefined',
  });
  // The preload refuses a name outside the table itself, in its own words, before any IPC.
  expect(await invokeInPage(app, 'vault.exportAll')).toEqual({
    ok: false,
    error: { code: 'bridge.unknown_method', message: 'Unknown bridge method: vault.exportAll.' },
  });
  const info = await invokeInPage(app, 'app.info');
  expect(info.ok).toBe(true);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'preload-shipped.png') });
  await expect(
    app.evaluate(() =>
      (globalThis as unknown as { terminal: { on(e: string, h: () => void): void } }).terminal.on(
        'keys.secret',
        () => {},
      ),
    ),
  ).rejects.toThrow(/Unknown bridge event: keys\.secret/);
  expect(problems).toEqual([]);
});

test('a preload bundle that cannot load leaves no bridge and an error in the console', async ({ page, renderer }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // The shipped bundle, broken the way a bad build would break it: it requires a node module.
  const broken = `require('node:fs');\n${shippedPreload()}`;
  await page.exposeBinding('__harnessInvoke', () => ({ ok: false, error: { code: 'test', message: 'unused' } }));
  await page.addInitScript({
    content: preloadInitScript(broken, {
      invokeBinding: '__harnessInvoke',
      deliver: '__harnessDeliver',
      invokePrefix: INVOKE_CHANNEL_PREFIX,
      eventPrefix: EVENT_CHANNEL_PREFIX,
    }),
  });
  await page.goto(renderer.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'absent');
  expect(await page.evaluate(() => typeof (globalThis as unknown as { terminal?: unknown }).terminal)).toBe(
    'undefined',
  );
  expect(errors.join('\n')).toContain('The preload bundle failed to load: Error: module not found: node:fs');
  await page.screenshot({ path: resolve(SCREENS_DIR, 'preload-broken.png') });
});
