/**
 * The app's own updates in the window, against the real core and a local update server serving a
 * release signed by a test key (test/updates): an announced update in ask-first mode, its download,
 * main's restart dialog (version, release notes quoted as the release's words, signing key) answered
 * no, and a refused update's notice. Screens: test-results/screens/update-*.png.
 */
import type { UpdateStatus } from '../src/shared/bridge';
import { saveDialogImage } from './harness/dialog-image';
import { expect, test } from './harness/fixture';
import { noProblems, open, setPassword, shot } from './harness/flows';

test.setTimeout(60_000);

async function status(core: { invoke(m: string, a: unknown): Promise<{ ok: boolean; value?: unknown }> }) {
  const outcome = await core.invoke('updates.status', []);
  expect(outcome.ok).toBe(true);
  return outcome.value as UpdateStatus;
}

test.describe('a signed update, ask first', () => {
  test.use({ updates: { version: '0.2.0', downloads: 'ask' } });

  test('is announced, downloaded on request, and installs only after main’s restart dialog', async ({
    app,
    core,
    context,
    problems,
  }) => {
    // On the file vault (no keychain answered) the app starts locked until a password is chosen.
    await setPassword(app);
    const badge = app.getByTestId('update-badge');
    await expect(badge).toHaveAttribute('data-state', 'available');
    await expect(badge).toContainText('Update 0.2.0 available');
    const announced = await status(core);
    const fingerprint = announced.release!.keyFingerprint;

    await open(app, 'Settings', 'Settings');
    const panel = app.getByTestId('updates-panel');
    await panel.scrollIntoViewIfNeeded();
    await expect(panel.getByTestId('update-state')).toHaveText(
      'Version 0.2.0 is available. It is downloaded when you ask (Download).',
    );
    await expect(panel.getByTestId('update-key')).toHaveText(fingerprint);
    // The release date as people read it (the manifest says 2026-11-20T10:00:00.000Z).
    await expect(panel.getByTestId('update-released')).toHaveText('20 Nov 2026');
    await expect(panel.getByTestId('update-notes')).toContainText(
      'Security fixes: orders over the free balance are refused before signing.',
    );
    await expect(panel.getByText('Release notes — the release’s own words, signed with that key')).toBeVisible();
    await shot(app, 'update-available');

    await panel.getByRole('button', { name: 'Download 0.2.0' }).click();
    await expect(badge).toHaveAttribute('data-state', 'ready');
    await expect(badge).toContainText('Update 0.2.0 ready');
    // Install-on-quit is off by default: only the restart dialog's yes installs.
    await expect(panel.getByTestId('update-state')).toContainText('quitting the app does not install it');
    await shot(app, 'update-ready');

    // Restart to update: main's dialog, answered no by the person. Nothing is installed; the app runs on.
    await core.dialogs({ kind: 'confirm', yes: false });
    const before = (await core.dialogPolicy({})).shown.length;
    await badge.getByRole('button', { name: 'Restart to update' }).click();
    await expect.poll(async () => (await core.dialogPolicy({})).shown.length).toBe(before + 1);
    const record = (await core.dialogPolicy({})).shown.at(-1)!;
    expect(record.kind).toBe('confirm');
    if (record.kind !== 'confirm') return;
    expect(record.request.title).toBe('Restart to update');
    expect(record.request.message).toBe('Install version 0.2.0 and restart the app?');
    // Versions and the date in words, no "Setting: App version" line and no raw timestamp.
    expect(record.request.detail).toContain(
      'Running now: version 0.1.0\nAfter the restart: version 0.2.0\nReleased: 20 Nov 2026',
    );
    expect(record.request.detail).not.toMatch(/Setting:|T\d\d:\d\d/);
    expect(record.request.detail).toContain(`Signed by release key: ${fingerprint}`);
    expect(record.request.detail).toContain(
      'Release notes (the release’s own words, signed with that key; the app does not vouch for them):\n> Security fixes:',
    );
    expect((await status(core)).state).toBe('ready');
    await noProblems(app, problems);

    const sheet = await context.newPage();
    await saveDialogImage(sheet, record, 'update-restart-dialog');
    await sheet.close();
  });
});

test.describe('an update whose download does not match its signed manifest', () => {
  test.use({ updates: { version: '0.2.0', tamperInstaller: true } });

  test('is refused with a notice and a sentence, and nothing is offered to install', async ({
    app,
    core,
    problems,
  }) => {
    await setPassword(app);
    const badge = app.getByTestId('update-badge');
    await expect(badge).toHaveAttribute('data-state', 'refused');
    await expect(badge).toContainText('Update 0.2.0 refused');
    const toast = app.getByTestId('toast');
    const sentence =
      'The downloaded Exchange-Terminal-0.2.0.AppImage does not match the SHA-512 in the signed manifest: it was deleted. Nothing was installed.';
    await expect(toast).toContainText('update refused');
    await expect(toast).toContainText(sentence);
    await shot(app, 'update-refused-notice');

    const refused = await status(core);
    expect(refused.problem).toEqual({ code: 'update.checksum', message: sentence });
    expect(await core.invoke('updates.restart', [])).toMatchObject({ ok: false, error: { code: 'update.not_ready' } });

    await open(app, 'Settings', 'Settings');
    const panel = app.getByTestId('updates-panel');
    await panel.scrollIntoViewIfNeeded();
    await expect(panel.getByTestId('update-state')).toHaveText(sentence);
    await expect(panel.getByRole('button', { name: /Restart to update/ })).toHaveCount(0);
    await shot(app, 'update-refused-settings');
    await noProblems(app, problems);
  });
});
