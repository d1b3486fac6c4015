/**
 * The updates.* bridge methods through the app core: status and events, the download in ask-first
 * mode, and main's restart dialog (version, release notes quoted and labelled as the release's words,
 * the signing key's fingerprint). Nothing installs without a yes there; after the yes, signing stops
 * and the restart installs exactly the release the dialog showed. Quitting the app (the window closing
 * itself included) installs only with the setting "install when I quit" on, which only main's dialog
 * turns on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../src/shared/bridge';
import { createSignatureGate } from '../../src/main/core/signature-gate';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../support/test-core';
import { quotedReleaseNotes } from '../../src/main/core/handlers/update-dialog';
import { DEFAULT_NOTES, startUpdatesFixture, type UpdatesFixture } from './updates-fixture';

const wait = { timeout: 10_000, interval: 20 };
let t: TestCore | null = null;
let fixture: UpdatesFixture | null = null;
afterEach(async () => {
  t?.close();
  t = null;
  await fixture?.close();
  fixture = null;
});

async function coreWithUpdate(options: Parameters<typeof startUpdatesFixture>[0] = {}, ask = false): Promise<TestCore> {
  fixture = await startUpdatesFixture(options);
  const f = fixture;
  t = await createTestCore({
    updates: f.service,
    beforeCore: (settings) => {
      if (ask) settings.updateSettings({ updateDownloads: 'ask' });
    },
  });
  return t;
}

async function call<T>(core: TestCore, method: string, ...args: unknown[]): Promise<T> {
  const outcome = await core.core.invoke(method, args);
  if (!outcome.ok) throw new Error(`${method}: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value as T;
}

describe('updates through the bridge', () => {
  it('reports each step as an event, and the ready release with its notes and key', async () => {
    const core = await coreWithUpdate();
    const events: UpdateStatus[] = [];
    core.core.on('updates', (s) => events.push(s));
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    const status = await call<UpdateStatus>(core, 'updates.status');
    expect(status).toMatchObject({
      currentVersion: '0.1.0',
      downloads: 'automatic',
      release: { version: '0.2.0', notes: DEFAULT_NOTES, keyFingerprint: fixture!.key.key.fingerprint },
    });
    expect(events.map((e) => e.state)).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
  });

  it('in ask-first mode downloads only when asked', async () => {
    const core = await coreWithUpdate({}, true);
    await vi.waitFor(
      async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('available'),
      wait,
    );
    expect((await call<UpdateStatus>(core, 'updates.download')).state).toBe('downloading');
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    // Asking again changes nothing.
    expect((await call<UpdateStatus>(core, 'updates.download')).state).toBe('ready');
  });

  it('in ask-first mode, switching the setting to automatic downloads what waits', async () => {
    const core = await coreWithUpdate({}, true);
    await vi.waitFor(
      async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('available'),
      wait,
    );
    await call(core, 'settings.update', { updateDownloads: 'automatic' });
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    expect((await call<UpdateStatus>(core, 'updates.status')).downloads).toBe('automatic');
  });

  it('refuses the restart with a sentence while nothing is ready, and the download when nothing is announced', async () => {
    const core = await coreWithUpdate({ version: null });
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('failed'), wait);
    expect(await core.core.invoke('updates.restart', [])).toEqual({
      ok: false,
      error: {
        code: 'update.not_ready',
        message: 'No update is downloaded and checked yet, so there is nothing to install. Nothing was installed.',
      },
    });
    expect(await core.core.invoke('updates.download', [])).toMatchObject({
      ok: false,
      error: { code: 'update.not_ready' },
    });
    expect(core.dialogs.shown).toEqual([]);
    expect(fixture!.installs()).toBe(0);
  });

  it('shows main’s restart dialog: versions, date, key fingerprint and the notes quoted as the release’s words', async () => {
    const core = await coreWithUpdate({
      notes: 'Line one\u202e reversed?\n\n\u0007Bell and tab\there\nA',
    });
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    core.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await call(core, 'updates.restart')).toEqual({ confirmed: false });
    const shown = core.dialogs.shown.at(-1);
    expect(shown?.kind).toBe('confirm');
    if (shown?.kind !== 'confirm') return;
    expect(shown.request.title).toBe('Restart to update');
    expect(shown.request.message).toBe('Install version 0.2.0 and restart the app?');
    expect(shown.request.confirmLabel).toBe('Restart and install');
    const detail = shown.request.detail;
    expect(detail).toContain('Running now: version 0.1.0\nAfter the restart: version 0.2.0\nReleased: 20 Nov 2026');
    expect(detail).not.toContain('Setting:');
    expect(detail).toContain(`Signed by release key: ${fixture!.key.key.fingerprint}`);
    expect(detail).toContain(
      'Release notes (the release’s own words, signed with that key; the app does not vouch for them):',
    );
    expect(detail).toContain('> Line one reversed?\n>\n> Bell and tab  here');
    expect([detail.includes('\u202e'), detail.includes('\u0007')]).toEqual([false, false]);
    expect(detail).toMatch(/This changes what the app trusts\. Confirm only if you asked for it\.$/);
    // No: nothing installed.
    expect(fixture!.installs()).toBe(0);
  });

  it('installs after the yes, and from then on refuses every new signature with a sentence', async () => {
    const core = await coreWithUpdate();
    await call(core, 'lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    core.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await call(core, 'updates.restart')).toMatchObject({ confirmed: true, value: { state: 'ready' } });
    expect(fixture!.installs()).toBe(1);
    const ticket = {
      assetId: '1',
      epoch: '1',
      side: 'buy',
      price: '50',
      size: '1',
      timeInForce: 'GTC',
      signAs: 'master',
    };
    expect(await core.core.invoke('orders.place', [ticket])).toEqual({
      ok: false,
      error: {
        code: 'update.restarting',
        message:
          'The app is restarting to install an update: nothing new is signed or sent. Nothing was sent for this request.',
      },
    });
    // Reading goes on.
    expect((await core.core.invoke('settings.get', [])).ok).toBe(true);
  });

  it('with a release ready and the setting off (the default), the window closing itself quits the app and installs nothing', async () => {
    const core = await coreWithUpdate();
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    expect(core.settings.getSettings().installUpdatesOnQuit).toBe(false);
    expect((await call<UpdateStatus>(core, 'updates.status')).installOnQuit).toBe(false);
    // window.close() in the page closes the last window; main's window-all-closed quits the app.
    expect(fixture!.quit()).toBe(false);
    expect(fixture!.installs()).toBe(0);
    expect(core.dialogs.shown).toEqual([]);
  });

  it('turns install-on-quit on only after main’s dialog, never through settings.update; off at once', async () => {
    const core = await coreWithUpdate();
    await vi.waitFor(async () => expect((await call<UpdateStatus>(core, 'updates.status')).state).toBe('ready'), wait);
    expect(await core.core.invoke('settings.update', [{ installUpdatesOnQuit: true }])).toMatchObject({
      ok: false,
      error: { code: 'settings.protected' },
    });
    // No in main's dialog: still off, and quitting installs nothing.
    core.dialogs.answer({ kind: 'confirm', yes: false });
    expect(await call(core, 'settings.setInstallUpdatesOnQuit', true)).toEqual({ confirmed: false });
    const asked = core.dialogs.shown.at(-1);
    expect(asked?.kind === 'confirm' && asked.request.title).toBe('Install updates when you quit');
    expect(asked?.kind === 'confirm' && asked.request.detail).toContain(
      'Now: only after your yes in the app’s Restart to update dialog',
    );
    expect(core.settings.getSettings().installUpdatesOnQuit).toBe(false);
    expect(fixture!.quit()).toBe(false);
    // Yes: on, the status says so, and a quit installs the ready release.
    const events: UpdateStatus[] = [];
    core.core.on('updates', (s) => events.push(s));
    core.dialogs.answer({ kind: 'confirm', yes: true });
    expect(await call(core, 'settings.setInstallUpdatesOnQuit', true)).toMatchObject({
      confirmed: true,
      value: { installUpdatesOnQuit: true },
    });
    expect(events.at(-1)).toMatchObject({ state: 'ready', installOnQuit: true });
    // Off is stricter: at once, without a dialog.
    const shown = core.dialogs.shown.length;
    expect(await call(core, 'settings.setInstallUpdatesOnQuit', false)).toMatchObject({
      confirmed: true,
      value: { installUpdatesOnQuit: false },
    });
    expect(core.dialogs.shown).toHaveLength(shown);
    expect(fixture!.quit()).toBe(false);
    expect(fixture!.installs()).toBe(0);
    core.dialogs.answer({ kind: 'confirm', yes: true });
    await call(core, 'settings.setInstallUpdatesOnQuit', true);
    expect(fixture!.quit()).toBe(true);
    expect(fixture!.installs()).toBe(1);
  });

  it('refuses downloading in offline mode before the service is asked, and checks nothing while offline', async () => {
    fixture = await startUpdatesFixture();
    const f = fixture;
    t = await createTestCore({ updates: f.service, launchedOffline: true });
    expect((await call<UpdateStatus>(t, 'updates.status')).state).toBe('offline');
    expect(await t.core.invoke('updates.download', [])).toMatchObject({ ok: false, error: { code: 'offline.on' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(f.server.requests).toEqual([]);
  });
});

describe('the signature gate', () => {
  it('lets the restart wait for signatures in progress, and refuses new ones', async () => {
    const gate = createSignatureGate();
    let release!: () => void;
    const running = gate.run(() => new Promise<string>((resolve) => (release = () => resolve('signed'))));
    let closed = false;
    const closing = gate.close().then(() => (closed = true));
    await expect(gate.run(() => Promise.resolve('late'))).rejects.toMatchObject({ code: 'update.restarting' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    expect(await running).toBe('signed');
    await closing;
    expect(closed).toBe(true);
    gate.reopen();
    expect(await gate.run(() => Promise.resolve('again'))).toBe('again');
  });
});

describe('release notes in the dialog', () => {
  it('are bounded: 24 lines of at most 110 characters, then a line saying how many more', () => {
    const lines = quotedReleaseNotes(Array.from({ length: 30 }, (_, i) => `${i} ${'x'.repeat(200)}`).join('\n'));
    expect(lines).toHaveLength(25);
    expect(lines[0]!.length).toBeLessThanOrEqual(2 + 110 + 1);
    expect(lines.at(-1)).toBe('> … (6 more lines)');
    expect(quotedReleaseNotes('  \n\n')).toEqual(['> (the release has no notes)']);
  });
});
