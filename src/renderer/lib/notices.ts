/**
 * Notices: one per event (a result of the user's action, or a message from the core such as a
 * fill of a resting order or a resolution). The newest is shown in the status bar's notice strip,
 * which covers nothing; every notice is kept in a bounded log the user can read back.
 */
import { get, writable } from 'svelte/store';
import { statusWord } from '../../shared/status-words';

export interface Toast {
  readonly id: number;
  readonly level: 'info' | 'success' | 'warning' | 'error';
  readonly message: string;
  /** A short status shown as a tag, in words ("rejected", "part closed"). */
  readonly status?: string;
  readonly at: number;
  /** Told while practice was selected: the strip and the log mark it PRACTICE (play money). */
  readonly practice?: boolean;
}

/** Whether practice is selected now (terminal.ts follows the connection): notices carry it. */
let practiceNow = false;
export function setNoticesPractice(on: boolean): void {
  practiceNow = on;
}

/** How long a notice stays in the strip: routine news briefly, problems until read. */
export const NOTICE_LIFETIME_MS: Readonly<Record<Toast['level'], number>> = {
  info: 4000,
  success: 5000,
  warning: 12000,
  error: 20000,
};
export const NOTICE_LOG_LIMIT = 200;

/** Every notice, newest first, bounded. */
export const noticeLog = writable<Toast[]>([]);
/** The notice in the strip, or null once it has lived its time or was dismissed. */
export const currentNotice = writable<Toast | null>(null);
/** Notices the user has not opened the log to read since they arrived. */
export const unreadNotices = writable(0);

/**
 * A warning or error stays in the strip at least this long before routine news (an info notice, such
 * as a resolution arriving a second after the roll notice) takes its place; the news waits, and is in
 * the log at once.
 */
export const NOTICE_HELD_MS = 4000;

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | null = null;
let waiting: { toast: Toast; timer: ReturnType<typeof setTimeout> } | null = null;

function show(toast: Toast): void {
  currentNotice.set(toast);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => dismissNotice(toast.id), NOTICE_LIFETIME_MS[toast.level]);
}

export function pushNotice(level: Toast['level'], message: string, status?: string): void {
  // The tag is the status in words (one table: src/shared/status-words.ts), never the raw code.
  const base = { id: nextId++, level, message, at: Date.now(), ...(practiceNow ? { practice: true } : {}) };
  const toast: Toast = status === undefined ? base : { ...base, status: statusWord(status) };
  noticeLog.update((log) => [toast, ...log].slice(0, NOTICE_LOG_LIMIT));
  unreadNotices.update((n) => n + 1);
  if (waiting) clearTimeout(waiting.timer);
  waiting = null;
  const shown = get(currentNotice);
  const heldFor =
    shown && (shown.level === 'warning' || shown.level === 'error') ? shown.at + NOTICE_HELD_MS - toast.at : 0;
  if (level === 'info' && heldFor > 0) {
    waiting = { toast, timer: setTimeout(() => ((waiting = null), show(toast)), heldFor) };
    return;
  }
  show(toast);
}

export function dismissNotice(id: number): void {
  currentNotice.update((n) => (n?.id === id ? null : n));
}

export function markNoticesRead(): void {
  unreadNotices.set(0);
}

/** Order statuses read as good, partial or bad news. */
export function levelForStatus(status: string): Toast['level'] {
  if (/REJECT|FAIL|NOT_COMMITTED/.test(status)) return 'error';
  if (status === 'CANCELLED' || status === 'PARTIALLY_FILLED') return 'warning';
  return 'success';
}
