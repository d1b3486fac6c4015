/** In-app notices (toasts): results of actions, with the core's sentence. */
import { writable } from 'svelte/store';

export interface Toast {
  readonly id: number;
  readonly level: 'info' | 'success' | 'warning' | 'error';
  readonly message: string;
  /** A short machine status shown as a tag, e.g. "REJECTED". */
  readonly status?: string;
}

export const toasts = writable<Toast[]>([]);
let nextId = 1;
const LIFETIME_MS = 8000;
const MAX_SHOWN = 5;

export function pushNotice(level: Toast['level'], message: string, status?: string): void {
  const toast: Toast = status === undefined ? { id: nextId++, level, message } : { id: nextId++, level, message, status };
  toasts.update((list) => [...list, toast].slice(-MAX_SHOWN));
  setTimeout(() => dismissNotice(toast.id), LIFETIME_MS);
}

export function dismissNotice(id: number): void {
  toasts.update((list) => list.filter((t) => t.id !== id));
}

/** Order statuses read as good, partial or bad news. */
export function levelForStatus(status: string): Toast['level'] {
  if (/REJECT|FAIL|NOT_COMMITTED/.test(status)) return 'error';
  if (status === 'CANCELLED' || status === 'PARTIALLY_FILLED') return 'warning';
  return 'success';
}
