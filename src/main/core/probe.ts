/**
 * Measurement hooks for benchmarks (bench/ui-hotkey.bench.ts): told when a bridge call reaches the
 * core, before any validation, and when the core emits an event. Null in the app and in tests; a
 * benchmark sets them and puts them back. They see only method and event names, never arguments.
 */
export const coreProbe: {
  onInvoke: ((method: string) => void) | null;
  /** The order gate began, or passed, one order (bench/ui-hotkey.bench.ts measures what it adds). */
  onGate: ((phase: 'enter' | 'leave') => void) | null;
  /** Told when the core emits an event to the window (its name only), before the payload is checked. */
  onEmit: ((event: string) => void) | null;
  /**
   * A working order fired (bench/working-orders.bench.ts): `eventAt` is performance.now() when main
   * received the market-data event (book, oracle tick, clock) that made its trigger true.
   */
  onWorkingFire: ((eventAt: number) => void) | null;
} = { onInvoke: null, onGate: null, onEmit: null, onWorkingFire: null };
