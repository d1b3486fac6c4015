/** Emergency kits in the window: the list main keeps, and panic from the Kit panel's button or its hotkey. */
import { writable } from 'svelte/store';
import type { KitView, PanicResult } from '../../shared/bridge';
import { pushNotice } from './notices';
import { call } from './terminal';

/** The kits main keeps, with their used counts; refreshed after anything that changes them. */
export const keptKits = writable<KitView[]>([]);

export async function refreshKits(): Promise<void> {
  const list = await call('kit.list');
  if (list) keptKits.set(list);
}

/** One notice per kit: what was sent, what was already used, what was kept, and any gap. */
export function panicText(r: PanicResult): { level: 'success' | 'warning' | 'error'; message: string } {
  const failed = r.outcomes.filter((o) => o.result === 'failed').length;
  const sent = r.outcomes.filter((o) => o.result === 'sent').length;
  const lines = [...r.outcomes.map((o) => o.sentence), ...r.gaps];
  const head =
    sent > 0 ? `Panic: ${sent} pre-signed request${sent === 1 ? '' : 's'} sent.` : 'Panic: nothing was sent.';
  return {
    level: failed > 0 ? 'error' : r.gaps.length > 0 ? 'warning' : 'success',
    message: [head, ...lines].join(' '),
  };
}

export async function panicNow(kitId: string | null = null): Promise<PanicResult[] | null> {
  const results = await call('kit.panic', kitId);
  for (const r of results ?? []) {
    const t = panicText(r);
    pushNotice(t.level, t.message);
  }
  await refreshKits();
  return results;
}
