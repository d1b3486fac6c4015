/**
 * The window's view of main's risk guards: the limits and today's loss budget, pushed by main when
 * its figure changes (the `risk` event) and read (risk.status) when a meter or the limits panel comes
 * on screen, after a settings change and after each order, never more than once a second. Changing a limit is main's decision (settings.setRiskLimits):
 * stricter at once, looser only after main's dialog.
 */
import { writable } from 'svelte/store';
import type { RiskStatus } from '../../shared/bridge';
import type { RiskLimits } from '../../shared/settings-schema';
import { attempt } from './attempt';
import { throttle } from './risk-limits';
import { bridgeClient, quietly, requestedSection, settings } from './terminal';

export const riskStatus = writable<RiskStatus | null>(null);

const READ_EVERY_MS = 1000;
const reader = throttle(() => void quietly('risk.status').then((s) => s && riskStatus.set(s)), READ_EVERY_MS);

/** Reads the budget again soon (at most once a second), when anything shows it. */
export function refreshRisk(): void {
  if (watchers > 0) reader.request();
}

let watchers = 0;
let stopEvents: (() => void) | null = null;

/** Keeps riskStatus current while the caller shows it; returns the stop. */
export function watchRisk(): () => void {
  watchers += 1;
  if (watchers === 1) {
    const bridge = bridgeClient();
    // Main pushes its figure when it changes (`risk`): the meter shows main's number, not an older read.
    const offs = bridge
      ? [bridge.on('risk', (status) => riskStatus.set(status)), bridge.on('settings', () => reader.request())]
      : [];
    stopEvents = () => offs.forEach((off) => off());
  }
  reader.request();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    watchers -= 1;
    if (watchers === 0) {
      stopEvents?.();
      stopEvents = null;
      reader.cancel();
    }
  };
}

/** Set by a link to the limits ("Risk limits in Settings"); the panel scrolls into view and clears it. */
export const limitsWanted = writable(false);

export function showRiskLimits(): void {
  limitsWanted.set(true);
  requestedSection.set('settings');
}

export type LimitSaved = { kind: 'saved' } | { kind: 'declined' } | { kind: 'failed'; message: string };

/** Asks main to change some limits; main's answer (the new settings) replaces the window's copy. */
export async function saveRiskLimits(change: Partial<RiskLimits>): Promise<LimitSaved> {
  const result = await attempt('settings.setRiskLimits', change);
  if (!result.ok) return { kind: 'failed', message: result.message };
  if (!result.value.confirmed) return { kind: 'declined' };
  settings.set(result.value.value);
  refreshRisk();
  return { kind: 'saved' };
}
