/**
 * Diffs the wanted ladder against the bot's resting orders into the fewest actions: orders
 * already at a wanted price and size stay, the rest are moved with cancel-and-replace, and
 * whatever is left over is cancelled or placed. Pure.
 */
import type { Quote } from './ladder';

export interface RestingOrder {
  orderId: string;
  side: boolean;
  price: bigint;
  size: bigint;
}

export type QuoteAction =
  | { kind: 'replace'; target: RestingOrder; quote: Quote }
  | { kind: 'cancel'; target: RestingOrder }
  | { kind: 'place'; quote: Quote };

/**
 * Order matters for post-only quotes: when fair rises, asks move up before bids follow, and
 * the other way round when it falls, so a moved bid never meets the bot's own stale ask.
 */
export function reconcileQuotes(wanted: Quote[], resting: RestingOrder[], fairRising: boolean): QuoteAction[] {
  const open = [...resting];
  const todo: Quote[] = [];
  for (const q of wanted) {
    const i = open.findIndex((o) => o.side === q.side && o.price === q.price && o.size === q.size);
    if (i >= 0) open.splice(i, 1);
    else todo.push(q);
  }
  const actions: QuoteAction[] = [];
  for (const q of todo) {
    const i = open.findIndex((o) => o.side === q.side);
    if (i >= 0) actions.push({ kind: 'replace', target: open.splice(i, 1)[0]!, quote: q });
    else actions.push({ kind: 'place', quote: q });
  }
  // Cancels go first: they only ever free room. Then the side moving away from the other.
  const leadSide = fairRising; // rising → asks (true) first
  const rank = (a: QuoteAction): number => (a.kind === 'cancel' ? 0 : a.quote.side === leadSide ? 1 : 2);
  return [...open.map((target): QuoteAction => ({ kind: 'cancel', target })), ...actions].sort(
    (a, b) => rank(a) - rank(b),
  );
}
