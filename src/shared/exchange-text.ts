// The exchange is untrusted: its own words reach the trader only quoted, cleaned and labelled as
// the exchange's ("The exchange said: "…""). Shared by the client library (its errors), main and
// the window (order results), so every process shows the exchange's text the same safe way.

/** Longest run of the exchange's text we show; the rest is cut with an ellipsis. */
export const MAX_QUOTED_CHARS = 200;

// Control characters, bidi overrides and other invisible formatting would let a server disguise
// what it says (or break the line it is shown in).
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** The exchange's text made safe to show inside our quotes: visible, one line, bounded. */
export function cleanExchangeText(text: string): string {
  const flat = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  const chars = [...flat];
  return chars.length > MAX_QUOTED_CHARS ? `${chars.slice(0, MAX_QUOTED_CHARS).join('')}…` : flat;
}

/** `The exchange said: "…".` for a sentence the server sent (no second full stop after its own). */
export function exchangeSaid(text: string): string {
  const clean = cleanExchangeText(text);
  return `The exchange said: "${clean}"${/[.!?…]$/.test(clean) ? '' : '.'}`;
}

/** What the exchange's order reject reasons mean to a trader; unknown reasons are quoted as the exchange's words. */
const REJECT_REASONS: Readonly<Record<string, string>> = {
  MARGIN: 'not enough collateral',
  INSUFFICIENT_BALANCE: 'not enough collateral',
  POST_ONLY: 'a post-only order would have crossed the book',
  ALO: 'a post-only order would have crossed the book',
  FOK: 'the whole size could not be filled at once',
  RESOLVED: 'the market has already resolved',
  MARKET_RESOLVED: 'the market has already resolved',
  INVALID_ORDER: 'the exchange refused the order as invalid',
  IOC: 'nothing could be filled at once',
  EXPIRED: 'the epoch has ended',
  SELF_TRADE: 'it would have traded with your own order',
};

/** Why an order was rejected, in words ("not enough collateral"), or the exchange's own, quoted; never its bare code. */
export function rejectReasonSentence(reason: string): string {
  const known = REJECT_REASONS[reason.toUpperCase()];
  if (known) return known;
  // A code we have no words for: its words in lower case ("SOME_NEW_RULE" → "some new rule").
  if (/^[A-Z][A-Z0-9_]*$/.test(reason)) return `the exchange refused it (${reason.toLowerCase().replace(/_+/g, ' ')})`;
  return cleanExchangeText(reason) !== '' ? exchangeSaid(reason) : 'no reason given';
}
