import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../shared/bridge';
import { updateBadgeText, updateNotice, updateStateSentence } from './updates';

const release = { version: '0.2.0', releaseDate: '2026-11-20T10:00:00.000Z', notes: 'Fixes.', keyFingerprint: 'AAAA' };
function status(state: UpdateStatus['state'], extra: Partial<UpdateStatus> = {}): UpdateStatus {
  return {
    state,
    downloads: 'automatic',
    installOnQuit: false,
    currentVersion: '0.1.0',
    release: null,
    percent: null,
    problem: null,
    checkedAt: null,
    ...extra,
  };
}

describe('the window’s words on updates', () => {
  it('raises one notice per change that matters: refused, available, ready; none for progress or checks', () => {
    const refused = status('refused', {
      release,
      problem: { code: 'update.checksum', message: 'The downloaded file does not match. Nothing was installed.' },
    });
    expect(updateNotice(status('downloading', { release }), refused)).toEqual({
      level: 'warning',
      message: 'The downloaded file does not match. Nothing was installed.',
      status: 'UPDATE REFUSED',
    });
    expect(updateNotice(refused, refused)).toBeNull();
    expect(updateNotice(null, status('ready', { release }))?.message).toBe(
      'Version 0.2.0 is ready: it installs after your yes in Restart to update.',
    );
    expect(updateNotice(null, status('ready', { release, installOnQuit: true }))?.message).toBe(
      'Version 0.2.0 is ready: it installs when you quit, or now with Restart to update.',
    );
    expect(updateNotice(null, status('available', { release }))?.message).toContain('Settings → Updates');
    expect(updateNotice(status('idle'), status('checking'))).toBeNull();
    expect(
      updateNotice(status('downloading', { release, percent: 10 }), status('downloading', { release, percent: 50 })),
    ).toBeNull();
  });

  it('says in the status bar only what concerns the person, with the download’s progress', () => {
    expect(updateBadgeText(status('up-to-date'))).toBeNull();
    expect(updateBadgeText(status('off'))).toBeNull();
    expect(updateBadgeText(status('downloading', { release, percent: 42.7 }))).toBe('Downloading update 0.2.0 · 42%');
    expect(updateBadgeText(status('ready', { release }))).toBe('Update 0.2.0 ready');
    expect(updateBadgeText(status('refused', { problem: { code: 'update.unsigned', message: 'x' } }))).toBe(
      'Update refused',
    );
  });

  it('words each state in one sentence, and a problem in main’s own sentence', () => {
    expect(updateStateSentence(status('up-to-date'))).toBe('This version (0.1.0) is the latest release.');
    expect(
      updateStateSentence(
        status('off', { problem: { code: 'update.off', message: 'This build does not update itself.' } }),
      ),
    ).toBe('This build does not update itself.');
    expect(updateStateSentence(status('ready', { release }))).toMatch(
      /^Version 0\.2\.0 is downloaded and checked\. .*quitting the app does not install it\.$/,
    );
    expect(updateStateSentence(status('ready', { release, installOnQuit: true }))).toContain(
      'It installs when you quit the app',
    );
  });
});
