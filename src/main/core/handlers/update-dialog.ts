/**
 * Main's restart-to-update dialog, from the verified release: the version now and after, the release
 * date, the fingerprint of the release key that signed the manifest, and the release notes quoted
 * line by line and labelled as the release's own words (cleaned of control and direction characters,
 * bounded), never as the app's. And main's dialog before quitting may install updates at all.
 */
import type { ConfirmRequest } from '../dialogs/dialogs';
import { displayDate } from '../../../shared/protocol/display';
import { confirmRequest } from '../dialogs/confirm-text';

export interface UpdateDialogFacts {
  readonly runningVersion: string;
  readonly version: string;
  readonly releaseDate: string | null;
  readonly notes: string;
  readonly keyFingerprint: string;
}

const MAX_NOTE_LINES = 24;
const MAX_NOTE_LINE = 110;
// C0/C1 controls (tab and newline handled apart), zero-width and bidirectional formatting characters.
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** The notes as quoted lines ("> …"), bounded; a line saying so when they were cut. */
export function quotedReleaseNotes(notes: string): string[] {
  const lines = notes
    .replace(/\r\n?/g, '\n')
    .replace(HIDDEN, '')
    .replace(/\t/g, '  ')
    .split('\n')
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return ['> (the release has no notes)'];
  const shown = lines
    .slice(0, MAX_NOTE_LINES)
    .map((l) => (l === '' ? '>' : `> ${l.length > MAX_NOTE_LINE ? `${l.slice(0, MAX_NOTE_LINE)}…` : l}`));
  if (lines.length > MAX_NOTE_LINES) shown.push(`> … (${lines.length - MAX_NOTE_LINES} more lines)`);
  return shown;
}

export function updateRestartRequest(facts: UpdateDialogFacts): ConfirmRequest {
  return confirmRequest({
    capability: 'changes-trust',
    title: 'Restart to update',
    action: `Install version ${facts.version} and restart the app`,
    confirmLabel: 'Restart and install',
    // The versions as sentences, not a "Setting: App version" change: a version is not a setting people keep.
    notes: [
      `Running now: version ${facts.runningVersion}`,
      `After the restart: version ${facts.version}`,
      `Released: ${facts.releaseDate === null ? 'not given' : displayDate(facts.releaseDate)}`,
      `Signed by release key: ${facts.keyFingerprint}`,
      'That key is built into this app; the downloaded installer matched the SHA-512 its signed manifest names.',
      '',
      'Release notes (the release’s own words, signed with that key; the app does not vouch for them):',
      ...quotedReleaseNotes(facts.notes),
      '',
      'Orders and other signatures stop now; the app waits for any in progress, then quits, installs and starts again.',
    ],
  });
}

/** Turning on "install a downloaded update when I quit": from then on any quit installs, unasked. */
export function installOnQuitRequest(): ConfirmRequest {
  return confirmRequest({
    capability: 'changes-trust',
    title: 'Install updates when you quit',
    action: 'Install a downloaded update whenever the app quits, without asking',
    confirmLabel: 'Install when I quit',
    change: {
      setting: 'Installing a downloaded update',
      from: 'only after your yes in the app’s Restart to update dialog',
      to: 'also whenever the app quits, however it is closed, without showing the version or notes first',
    },
    notes: [
      'Only releases signed by a release key built into this app are ever downloaded.',
      'On macOS updates install through Restart to update only, whatever this says.',
    ],
  });
}
