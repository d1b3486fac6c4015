/** Health of one feed as the status bar shows it: state, why, latency, last message and resyncs. */
import type { FeedHealth, FeedHealthState } from '../../../shared/bridge';
import type { SocketState } from '../../exchange';

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
    return { feed: this.feed, state: this.state, reason: this.reason, latencyMs: this.latencyMs, lastMessageAt: this.lastMessageAt, resyncs: this.resyncs };
  }
}

/** A WebSocket's state in the feed vocabulary; `staleAfterMs` without a message while open is stale. */
export function socketHealth(
  tracker: FeedHealthTracker,
  socket: SocketState,
  lastMessageAt: number | null,
  now: number,
  staleAfterMs: number,
): void {
  tracker.lastMessageAt = lastMessageAt;
  if (socket === 'open') {
    if (lastMessageAt !== null && now - lastMessageAt > staleAfterMs) tracker.fail('stale', `no message for ${Math.round(staleAfterMs / 1000)} s`);
    else {
      tracker.state = 'live';
      tracker.reason = 'ok';
    }
  } else if (socket === 'connecting' || socket === 'waiting') tracker.fail('resyncing', 'reconnecting');
  else tracker.fail('down', socket === 'closed' ? 'closed' : 'not connected');
}
