/**
 * Measurement hook for benchmarks (bench/ui-hotkey.bench.ts): told when a bridge call reaches the
 * core, before any validation. Null in the app and in tests; a benchmark sets it and puts it back.
 * It sees only the method name, never the arguments.
 */
export const coreProbe: {
  onInvoke: ((method: string) => void) | null;
  /** The order gate began, or passed, one order (bench/ui-hotkey.bench.ts measures what it adds). */
  onGate: ((phase: 'enter' | 'leave') => void) | null;
} = { onInvoke: null, onGate: null };
