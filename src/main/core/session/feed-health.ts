/** Health of one feed as the status bar shows it: state, why, latency, last message and resyncs. */
import type { FeedHealth, FeedHealthState } from '../../../shared/bridge';
import type { SocketState } from '../../../client';

type FeedName = FeedHealth['feed'];

export class FeedHealthTracker {
  state: FeedHealthState = 'down';
  reason = 'not connected yet';
  latencyMs: number | null = null;
  lastMessageAt: number | null = null;
  resyncs = 0;
  constructor(readonly feed: FeedName) {}

  ok(latencyMs: number | null, at: number): void {
    this.state = 'live';
    this.reason = 'ok';
    this.latencyMs = latencyMs;
    this.lastMessageAt = at;
  }

  fail(state: Exclude<FeedHealthState, 'live'>, reason: string): void {
    this.state = state;
    this.reason = reason;
  }

  view(): FeedHealth {
    return {
      feed: this.feed,
      state: this.state,
      reason: this.reason,
      latencyMs: this.latencyMs,
      lastMessageAt: this.lastMessageAt,
      resyncs: this.resyncs,
    };
  }
}

/** What socketHealth reads of a feed's socket. */
export interface SocketView {
  readonly state: SocketState;
  /** Open with a subscription acknowledged (a socket that opened but says nothing is not live). */
  isLive(): boolean;
  /** Why the last socket was dropped, shown while reconnecting. */
  readonly dropReason: string | null;
}

/**
 * A WebSocket's state in the feed vocabulary; `staleAfterMs` without a message while open is stale.
 * A silent socket is dropped by its heartbeat within seconds, so 'live' needs an acknowledged
 * subscription on an open socket, and a reconnect says why the last socket went.
 */
export function socketHealth(
  tracker: FeedHealthTracker,
  socket: SocketView,
  lastMessageAt: number | null,
  now: number,
  staleAfterMs: number,
): void {
  tracker.lastMessageAt = lastMessageAt;
  const why = socket.dropReason === null ? 'reconnecting' : `reconnecting: ${socket.dropReason}`;
  if (socket.state === 'open') {
    if (!socket.isLive())
      tracker.fail('resyncing', socket.dropReason === null ? 'subscribing' : `subscribing after ${socket.dropReason}`);
    else if (lastMessageAt !== null && now - lastMessageAt > staleAfterMs)
      tracker.fail('stale', `no message for ${Math.round(staleAfterMs / 1000)} s`);
    else {
      tracker.state = 'live';
      tracker.reason = 'ok';
    }
  } else if (socket.state === 'connecting' || socket.state === 'waiting') tracker.fail('resyncing', why);
  else tracker.fail('down', socket.state === 'closed' ? 'closed' : 'not connected');
}
