/**
 * The one table of status words: what the exchange's and main's status codes (ACCEPTED,
 * PARTIALLY_CLOSED, QUEUED…) read as on screen, in tags and sentences. Codes stay codes in the
 * bridge (the window decides on them); people read these words. An unknown code is shown in
 * lower-case words ("SOME_NEW_STATE" → "some new state"), never raw.
 */

const WORDS: Readonly<Record<string, string>> = {
  // orders
  ACCEPTED: 'resting',
  FILLED: 'filled',
  PARTIALLY_FILLED: 'part filled',
  CANCELLED: 'cancelled',
  REJECTED: 'rejected',
  // cancels and edits
  CANCEL_FAILED: 'not cancelled',
  CANCEL_NOT_COMMITTED: 'not confirmed',
  SUCCESS: 'done',
  REPLACEMENT_FAILED: 'not replaced',
  CANCEL_COMMITTED_REPLACEMENT_FAILED: 'cancelled, not replaced',
  // closes
  CLOSED: 'closed',
  PARTIALLY_CLOSED: 'part closed',
  NOTHING_TO_CLOSE: 'nothing to close',
  NO_LIQUIDITY: 'no liquidity',
  NOT_FILLED: 'not filled',
  // claims and withdrawals
  CLAIMED: 'claimed',
  CLAIM_FAILED: 'not claimed',
  QUEUED: 'queued',
  PAID: 'paid',
  WITHDRAWN: 'accepted',
  WITHDRAWAL_FAILED: 'failed',
  // requests signed elsewhere, sent
  SUBMITTED: 'sent',
  APPROVED: 'approved',
  REVOKED: 'revoked',
  ERROR: 'failed',
  FAILED: 'failed',
};

/** "PARTIALLY_CLOSED" → "part closed": how a status reads on screen. */
export function statusWord(status: string): string {
  return WORDS[status] ?? status.toLowerCase().replace(/_+/g, ' ').trim();
}

/** Every code the table knows (tests check no shown word is a code). */
export const KNOWN_STATUSES: readonly string[] = Object.keys(WORDS);
