import type { Logger } from './rotating-logger';

/** A logger that writes nothing: for tests and for parts run without a log file. */
export const silentLogger: Logger = {
  log: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
  filePath: '',
};
