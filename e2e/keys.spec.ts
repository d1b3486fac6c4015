/**
 * Keys and the app lock, end to end: the built renderer in Chromium, `window.terminal` wired to
 * the real app core (real vault, real Secret Service under scripts/with-keyring.sh), dialogs
 * answered by the test.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TOKEN_HEADER } from './harness/client';
import type { Page } from '@playwright/test';
import { expect, invokeInPage, recordEvents, recordedEvents, SCREENS_DIR, test, type Harness } from './harness/fixture';

const PASSWORD = 'e2e vault password';

type Outcome = Awaited<ReturnType<typeof invokeInPage>>;
function value<T>(outcome: Outcome): T {
  expect(outcome.error, outcome.error?.message).toBeUndefined();
  expect(outcome.ok).toBe(true);
  return outcome.value as T;
}

/** The first app password. On the OS keychain it is a trust change: main asks, and the user says yes. */
async function firstPassword(app: Page, core: Harness): Promise<void> {
  if (core.server.backend() === 'keychain') await core.dialogs({ kind: 'confirm', yes: true });
  value(await invokeInPage(app, 'lock.setPassword', { password: PASSWORD, passwordAgain: PASSWORD }));
}

test('create a key and see it listed', async ({ app, core, problems }) => {
  // Which vault the harness got: the OS keychain under with-keyring.sh, else the encrypted file.
  test.info().annotations.push({ type: 'vault backend', description: core.server.backend() });
  await recordEvents(app, 'keys');
  await firstPassword(app, core);
  const key = value<{ address: string; label: string; source: string }>(
    await invokeInPage(app, 'keys.create', { label: 'Main account' }),
  );
  expect(key).toMatchObject({
    label: 'Main account',
    source: 'created',
    role: 'master',
    backend: core.server.backend(),
  });

  const listed = value<{ address: string; label: string }[]>(await invokeInPage(app, 'keys.list'));
  expect(listed).toEqual([expect.objectContaining({ address: key.address, label: 'Main account' })]);
  await expect.poll(() => recordedEvents(app, 'keys')).toEqual([[expect.objectContaining({ address: key.address })]]);
  await app.screenshot({ path: resolve(SCREENS_DIR, 'keys-created.png') });
  expect(problems).toEqual([]);
});

test('a restarted core still has the key and the password', async ({ app, core }) => {
  await firstPassword(app, core);
  const key = value<{ address: string }>(await invokeInPage(app, 'keys.create', { label: 'Survivor' }));
  await core.restartCore();
  await app.reload();
  await expect(app.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected');
  expect(value(await invokeInPage(app, 'lock.status'))).toMatchObject({ locked: true, hasPassword: true });
  value(await invokeInPage(app, 'lock.unlock', PASSWORD));
  expect(value(await invokeInPage(app, 'keys.list'))).toEqual([
    expect.objectContaining({ address: key.address, label: 'Survivor' }),
  ]);
});

test('lock and unlock, with lock events in the window', async ({ app, core }) => {
  await firstPassword(app, core);
  await recordEvents(app, 'lock');
  expect(value(await invokeInPage(app, 'lock.lock'))).toMatchObject({ locked: true });
  const refused = await invokeInPage(app, 'keys.create', {});
  expect(refused.error).toMatchObject({ code: 'vault.locked', message: expect.stringMatching(/locked/) });
  expect(value(await invokeInPage(app, 'lock.unlock', PASSWORD))).toMatchObject({ locked: false });
  await expect
    .poll(async () => ((await recordedEvents(app, 'lock')) as { locked: boolean }[]).map((s) => s.locked))
    .toEqual([true, false]);
});

test('wrong passwords are throttled', async ({ app, core }) => {
  await firstPassword(app, core);
  value(await invokeInPage(app, 'lock.lock'));
  expect((await invokeInPage(app, 'lock.unlock', 'guess one')).error).toEqual({
    code: 'vault.bad_password',
    message: 'The password is wrong.',
  });
  expect((await invokeInPage(app, 'lock.unlock', 'guess two')).error).toEqual({
    code: 'vault.bad_password',
    message: 'The password is wrong. Wait 1 s before trying again.',
  });
  // The right password is refused too until the wait is over.
  expect((await invokeInPage(app, 'lock.unlock', PASSWORD)).error).toMatchObject({ code: 'vault.throttled' });
  expect(value(await invokeInPage(app, 'lock.status'))).toMatchObject({ throttledUntil: expect.any(Number) });
  // The harness clock skips the wait instead of the test sleeping through it.
  await core.advanceClock(1_000);
  expect(value(await invokeInPage(app, 'lock.unlock', PASSWORD))).toMatchObject({
    locked: false,
    throttledUntil: null,
  });
});

test('export a keystore through main dialogs and import it back', async ({ app, core }) => {
  await firstPassword(app, core);
  const key = value<{ address: string }>(await invokeInPage(app, 'keys.create', { label: 'Exported' }));
  const file = join(mkdtempSync(join(resolve('test-results'), 'keystore-')), 'keystore.json');

  await core.dialogs({ kind: 'confirm', yes: true }, { kind: 'saveFile', path: file });
  const exported = value(
    await invokeInPage(app, 'keys.exportKeystore', {
      address: key.address,
      password: 'keystore pw 1',
      passwordAgain: 'keystore pw 1',
    }),
  );
  expect(exported).toEqual({ confirmed: true, value: { path: file } });
  const json = readFileSync(file, 'utf8');

  const { shown } = await core.dialogs({ kind: 'confirm', yes: true });
  const exportDialog = shown.find((d) => d.kind === 'confirm' && d.request.title === 'Export key');
  expect(exportDialog).toMatchObject({
    kind: 'confirm',
    request: {
      message: 'Export this key as an encrypted keystore file?',
      detail: expect.stringContaining(`Key: ${key.address}`),
    },
  });
  expect(value(await invokeInPage(app, 'keys.delete', { address: key.address }))).toEqual({
    confirmed: true,
    value: null,
  });
  expect(value(await invokeInPage(app, 'keys.list'))).toEqual([]);

  const wrong = await invokeInPage(app, 'keys.importKeystore', { json, password: 'not it' });
  expect(wrong.error?.code).toMatch(/^keys\.invalid_keystore$|^vault\.bad_password$/);
  const back = value(
    await invokeInPage(app, 'keys.importKeystore', { json, password: 'keystore pw 1', label: 'Back again' }),
  );
  expect(back).toMatchObject({ address: key.address, source: 'keystore', label: 'Back again' });
});

test('the core server refuses requests without the token or from a web origin', async ({ core }) => {
  const body = JSON.stringify({ method: 'keys.list', args: [] });
  const noToken = await fetch(`${core.server.url}/invoke`, { method: 'POST', body });
  expect(noToken.status).toBe(401);
  const fromPage = await fetch(`${core.server.url}/invoke`, {
    method: 'POST',
    body,
    headers: { [TOKEN_HEADER]: core.server.token, origin: 'http://127.0.0.1:1' },
  });
  expect(fromPage.status).toBe(403);
});
