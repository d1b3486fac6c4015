// The exchange is untrusted: its own words reach the trader only quoted, cleaned and labelled as
// the exchange's ("The exchange said: "…""), and the codes we know get sentences of our own. A code
// we do not know is shown as a code, never as an instruction in our voice.

import { cleanExchangeText, exchangeSaid } from '../shared/exchange-text';

export { MAX_QUOTED_CHARS, cleanExchangeText, exchangeSaid } from '../shared/exchange-text';

/** Codes the exchange documents (or the devnet sends), in our own words. */
const KNOWN: Readonly<Record<string, string>> = {
  // Lookups
  INVALID_ACCOUNT: 'The exchange does not recognise this account address.',
  BALANCE_NOT_FOUND: 'The exchange has no balance for this account yet.',
  POSITION_NOT_FOUND: 'The exchange has no position for this account in that market.',
  INVALID_ASSET_ID: 'The exchange does not recognise this market.',
  ASSET_ID_NOT_REGISTERED: 'This market is not registered on the exchange.',
  ASSET_NOT_FOUND: 'The exchange does not know this market.',
  ASSET_EPOCH_NOT_FOUND: 'The exchange does not know this epoch of the market.',
  ASSET_ID_NOT_AVAILABLE: 'This market is not open for trading right now.',
  INVALID_EPOCH: 'The exchange does not recognise this epoch.',
  ORDERBOOK_NOT_FOUND: 'The exchange has no order book for this market and epoch.',
  ORDERS_NOT_FOUND: 'The exchange found no orders for this request.',
  ORDER_NOT_FOUND: 'The exchange does not know this order (it may have filled or been cancelled).',
  ENTRIES_NOT_FOUND: 'The exchange has no ledger entries for this request.',
  INVALID_SEQID: 'The exchange refused the sequence number of this request.',
  RESOLUTION_NOT_FOUND: 'The exchange has no resolution for this market and epoch yet.',
  EPOCH_NOT_RESOLVED: 'This epoch has not resolved yet.',
  ASSET_ID_NOT_EXPIRED: 'This market has not expired yet.',
  CHAIN_NOT_FOUND: 'The exchange does not serve this chain.',
  INVALID_CHAIN_ID: 'The exchange refused the chain id.',
  ROUTE_NOT_FOUND: 'The exchange does not offer this request.',
  // Orders and cancels
  MISSING_ORDER_OR_SIGNATURE: 'The exchange received the order without its signature.',
  MISSING_CANCEL_OR_SIGNATURE: 'The exchange received the cancel without its signature.',
  INVALID_TIME_IN_FORCE: 'The exchange refused the time in force.',
  INVALID_PRICE: 'The exchange refused the price.',
  INVALID_SIZE: 'The exchange refused the size.',
  INVALID_ORDER: 'The exchange refused the order as invalid.',
  INVALID_ORDER_PARAMETERS: 'The exchange refused the order parameters.',
  INSUFFICIENT_MARGIN: 'Not enough collateral for this order.',
  ALO_WOULD_CROSS: 'A post-only order would have crossed the book.',
  MARKET_RESOLVED: 'This market has already resolved.',
  REPLACEMENT_SIDE_MISMATCH: 'A replacement must be on the same side as the order it replaces.',
  CROSS_MARKET_CANCEL_REPLACE_NOT_SUPPORTED: 'An order can only be replaced in its own market.',
  CANCEL_REPLACE_CANCEL_ALL_NOT_SUPPORTED: 'Cancel-all cannot be combined with a replacement.',
  ENTRY_PROCESSED: 'The exchange has already processed this exact request.',
  REPLACEMENT_ENTRY_PROCESSED: 'The exchange has already processed this exact replacement.',
  EXCHANGE_PAUSED: 'The exchange is paused; nothing can be traded right now.',
  // Signatures and agents
  ORDER_HASH_MISMATCH: 'The exchange computed a different digest for this request than the one signed.',
  CANCEL_ORDER_HASH_MISMATCH: 'The exchange computed a different digest for this cancel than the one signed.',
  REPLACEMENT_ORDER_HASH_MISMATCH: 'The exchange computed a different digest for the replacement than the one signed.',
  CANCEL_REPLACE_ORDER_HASH_MISMATCH:
    'The exchange computed a different digest for this cancel-and-replace than the one signed.',
  WITHDRAWAL_ORDER_HASH_MISMATCH: 'The exchange computed a different digest for this withdrawal than the one signed.',
  APPROVE_AGENT_ORDER_HASH_MISMATCH:
    'The exchange computed a different digest for this agent approval than the one signed.',
  REVOKE_ORDER_HASH_MISMATCH: 'The exchange computed a different digest for this revocation than the one signed.',
  INVALID_SIGNATURE: 'The exchange did not accept the signature.',
  INVALID_APPROVAL_SIGNATURE: 'The exchange did not accept the agent approval signature.',
  INVALID_REPLACEMENT_SIGNATURE: 'The exchange did not accept the replacement signature.',
  SIGNATURE_TYPE_MISMATCH: 'The signature type does not match the signer.',
  UNSUPPORTED_SIGNATURE_TYPE: 'The exchange does not support this signature type.',
  SIGNER_MISMATCH: 'The signer is not the account the request is for.',
  SIGNER_NOT_SENDER: 'The signer and sender do not match as the exchange requires.',
  SENDER_MISMATCH: 'The sender does not match the order being replaced.',
  SENDER_MUST_BE_SIGNER: 'The sender must be the signer.',
  EOA_SIGNER_AND_SENDER_MUST_MATCH: 'The signer and sender must be the same account.',
  INVALID_AUTH_PARAMETERS: 'The exchange refused the authentication fields of the request.',
  'Invalid auth parameters': 'The exchange refused the authentication fields of the request.',
  'Internal enqueue error': 'The exchange could not queue the request; try again.',
  AGENT_NOT_APPROVED: 'This agent is not approved for the account.',
  AGENT_APPROVAL_INACTIVE: 'The agent approval is not active.',
  AGENT_APPROVAL_EXPIRED: 'The agent approval has expired.',
  AGENT_NOT_ALLOWED: 'An agent may not sign this request.',
  AGENT_CANNOT_APPROVE_ITSELF: 'An agent cannot approve itself.',
  APPROVAL_NONCE_MISMATCH: 'The agent approval nonce does not match the exchange\u2019s.',
  NONCE_IN_THE_PAST: 'The nonce is older than the exchange accepts.',
  NONCE_TOO_FAR_IN_FUTURE: 'The nonce is further ahead than the exchange accepts.',
  INVALID_MASTER: 'The exchange refused the master account.',
  INVALID_AGENT: 'The exchange refused the agent address.',
  // Funds
  INSUFFICIENT_LEDGER_BALANCE: 'Not enough free balance for this withdrawal.',
  INVALID_WITHDRAWAL_PARAMETERS: 'The exchange refused the withdrawal parameters.',
  NO_CLAIMABLE_AMOUNT: 'There is nothing to claim for this epoch.',
  ALREADY_CLAIMED: 'This epoch has already been claimed.',
  // Transport and limits
  RATE_LIMITED: 'The exchange is limiting how often this can be done; try again in a moment.',
  BODY_TOO_LARGE: 'The exchange refused the request as too large.',
  INVALID_JSON: 'The exchange could not read the request.',
  INTERNAL_ERROR: 'The exchange had an internal error.',
};

/** Our sentence for a code, or undefined when we do not know it. */
export function knownCodeSentence(code: string): string | undefined {
  return Object.hasOwn(KNOWN, code) ? KNOWN[code] : undefined;
}

/**
 * The sentence a trader sees for an exchange refusal: ours for a known code (or documented
 * sentence-code), then the exchange's own words, quoted, when it sent any.
 */
export function refusalSentence(opts: {
  token: string | undefined;
  serverText: string | undefined;
  status: number;
}): string {
  const { token, serverText, status } = opts;
  const ours = knownCodeSentence(token ?? (status === 429 ? 'RATE_LIMITED' : (serverText ?? '')));
  const quoted =
    serverText !== undefined && cleanExchangeText(serverText) !== '' ? exchangeSaid(serverText) : undefined;
  const head =
    ours ??
    (token !== undefined
      ? `The exchange refused the request (${token}).`
      : status >= 500
        ? `The exchange failed (HTTP ${status}).`
        : `The exchange refused the request (HTTP ${status}).`);
  return quoted ? `${head} ${quoted}` : head;
}
