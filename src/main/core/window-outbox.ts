/**
 * What the window is sent, in the order a trader needs it. With the market busy, main emits tens of
 * book, market-list and oracle events a second; sent as emitted, they queued in the one ordered
 * channel to the window (Electron's IPC, or the e2e harness's), and the exchange's answer to the
 * window's own order waited behind them (issue 29: key → resting p95 162 ms live against 81 idle,
 * measured by `npm run bench -- ui-hotkey` before this outbox).
 *
 * So market data (the bridge table's `perFrame` events: books, the market list, oracle prices, trade
 * prints, and the account view the market re-marks) is held and sent once per frame, only the latest
 * per key (`latestBy`: a book per subscription, the market list, an oracle price per symbol, the
 * account view) and every trade print in order; every other event (an order's answer, fills, the
 * order history, notices) is sent the moment it is emitted, ahead of any market data still held. The
 * first held event after a quiet frame goes out on the next turn of the loop, not a frame later.
 */
import { bridgeEventNames, bridgeEvents, type BridgeEvent } from '../../shared/bridge';
import type { EventListener } from './event-hub';

/** One frame of a 60 Hz screen, ms: no book reaches the window more often than it can paint it. */
export const WINDOW_FRAME_MS = 16;

export interface WindowOutboxOptions {
  frameMs?: number;
  now?: () => number;
  /** Runs `fn` after `ms` (0: on the next turn of the loop); returns the cancel. */
  later?: (fn: () => void, ms: number) => () => void;
}

export type WindowEvent = readonly [event: BridgeEvent, payload: unknown];

const defaultLater = (fn: () => void, ms: number): (() => void) => {
  if (ms <= 0) {
    const handle = setImmediate(fn);
    return () => clearImmediate(handle);
  }
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

/** The key a market event is kept under in a frame (latest wins), or null when each one is kept. */
function keyOf(event: BridgeEvent, payload: unknown): string | null {
  const spec = bridgeEvents[event] as { perFrame?: { latestBy?: (payload: never) => string } };
  const latestBy = spec.perFrame?.latestBy;
  return latestBy ? `${event}\u0000${latestBy(payload as never)}` : null;
}

/**
 * Listens to every bridge event of `source` and hands them to `send` as the window should get them:
 * immediate ones alone, at once; market data in one batch per frame. Returns the stop (held market
 * data is dropped: nothing is left to send it to).
 */
export function windowOutbox(
  source: { on<E extends BridgeEvent>(event: E, listener: EventListener<E>): () => void },
  send: (batch: readonly WindowEvent[]) => void,
  options: WindowOutboxOptions = {},
): () => void {
  const frameMs = options.frameMs ?? WINDOW_FRAME_MS;
  const now = options.now ?? (() => performance.now());
  const later = options.later ?? defaultLater;
  /** Market data held for the next frame, in the order first emitted; a kept key keeps its place. */
  const held = new Map<string, WindowEvent>();
  let unkeyed = 0;
  let lastFlush = -Infinity;
  let cancel: (() => void) | null = null;

  const flush = (): void => {
    cancel = null;
    if (held.size === 0) return;
    const batch = [...held.values()];
    held.clear();
    lastFlush = now();
    send(batch);
  };
  const hold = (event: BridgeEvent, payload: unknown): void => {
    const key = keyOf(event, payload) ?? `#${unkeyed++}`;
    held.set(key, [event, payload]);
    if (cancel) return;
    cancel = later(flush, Math.max(0, lastFlush + frameMs - now()));
  };

  const offs = bridgeEventNames.map((event) =>
    source.on(event, (payload) => {
      if ('perFrame' in bridgeEvents[event]) hold(event, payload);
      else send([[event, payload]]);
    }),
  );
  return () => {
    for (const off of offs) off();
    cancel?.();
    cancel = null;
    held.clear();
  };
}
