import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  /** Directory for the log files (the app's logs path in production, a temp dir in tests). */
  dir: string;
  /** Current file name; rotated files get .1, .2 … (".1" is the newest). */
  fileName?: string;
  /** Rotate before a line would make the current file larger than this. */
  maxBytes?: number;
  /** Files kept in total, the current one included. */
  maxFiles?: number;
  minLevel?: LogLevel;
  now?: () => number;
}

/**
 * Fields of one line. By convention `event` names what happened ("http.request", "ws.status",
 * "feed.gap", "timing.sign") and `ms` carries durations.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  /** A logger that adds `fields` (e.g. { scope: 'exchange' }) to every line. */
  child(fields: LogFields): Logger;
  /** Path of the current file. */
  readonly filePath: string;
}

/**
 * JSON-lines logger with size-based rotation. Every line passes through redact(), so a secret handed to
 * the logger by mistake is not written. Writes are synchronous appends: lines are small and ordering
 * across a crash matters more than the microseconds.
 */
export function createLogger(options: LoggerOptions): Logger {
  const fileName = options.fileName ?? 'main.log';
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const maxFiles = Math.max(1, options.maxFiles ?? 5);
  const minLevel = LEVEL_ORDER[options.minLevel ?? 'info'];
  const now = options.now ?? Date.now;
  const filePath = join(options.dir, fileName);
  mkdirSync(options.dir, { recursive: true });
  let size = existsSync(filePath) ? statSync(filePath).size : 0;

  const rotate = () => {
    rmSync(`${filePath}.${maxFiles - 1}`, { force: true });
    for (let i = maxFiles - 2; i >= 1; i--) {
      if (existsSync(`${filePath}.${i}`)) renameSync(`${filePath}.${i}`, `${filePath}.${i + 1}`);
    }
    if (maxFiles > 1 && existsSync(filePath)) renameSync(filePath, `${filePath}.1`);
    else rmSync(filePath, { force: true });
    size = 0;
  };

  const write = (base: LogFields, level: LogLevel, event: string, fields: LogFields = {}) => {
    if (LEVEL_ORDER[level] < minLevel) return;
    const record = redact({ ...base, ...fields }) as LogFields;
    const line = `${JSON.stringify({ ts: new Date(now()).toISOString(), level, event, ...record })}\n`;
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) rotate();
    try {
      appendFileSync(filePath, line, { mode: 0o600 });
      size += bytes;
    } catch {
      // Logging must never break the operation being logged.
    }
  };

  const make = (base: LogFields): Logger => ({
    filePath,
    log: (level, event, fields) => write(base, level, event, fields),
    debug: (event, fields) => write(base, 'debug', event, fields),
    info: (event, fields) => write(base, 'info', event, fields),
    warn: (event, fields) => write(base, 'warn', event, fields),
    error: (event, fields) => write(base, 'error', event, fields),
    child: (fields) => make({ ...base, ...fields }),
  });
  return make({});
}
