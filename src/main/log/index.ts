export { createLogger } from './rotating-logger';
export type { Logger, LoggerOptions, LogFields, LogLevel } from './rotating-logger';
export { redact, redactPhrases, REDACTED } from './redact';
export { silentLogger } from './silent-logger';
