// The exchange client library of the main process (HTTP + WebSocket). The deposit client lives in ./deposit.
export { ExchangeClient, type AgentInput, type CancelOutcome, type CancelReplaceOutcome, type DeploymentContext, type ExchangeClientOptions, type IntentOutcome, type OrderOutcome, type SendOptions } from './client';
export { ExchangeReader, DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH, MAX_FILLS_LIMIT, type FillsQuery } from './read-client';
export { HttpCore, DEFAULT_TIMEOUT_MS, MAX_RESPONSE_BYTES, errorCodeOf, normaliseBaseUrl, resolveUrl, type CallOptions, type HttpCoreOptions, type HttpResponse, type ResponseTiming } from './http';
export {
  ExchangeAbortError,
  ExchangeError,
  ExchangeHttpError,
  ExchangeResponseTooLargeError,
  ExchangeTimeoutError,
  ExchangeTransportError,
  ExchangeValidationError,
  toExchangeError,
  type AuthFailureCondition,
  type Diagnosis,
} from './errors';
export { cleanExchangeText, exchangeSaid, knownCodeSentence } from './exchange-words';
export { diagnose, type DoctorFacts } from './doctor';
export {
  NonceRegistry,
  sharedNonceRegistry,
  buildSignedApproveAgent,
  buildSignedCancel,
  buildSignedCancelAll,
  buildSignedCancelReplace,
  buildSignedClaim,
  buildSignedOrder,
  buildSignedRevokeAgent,
  buildSignedWithdrawal,
  signAgentApproval,
  keySigner,
  type ActionSigner,
  type AgentFields,
  type ApproveAgentInput,
  type CancelAllInput,
  type CancelInput,
  type CancelReplaceInput,
  type ClaimInput,
  type OrderInput,
  type SignRequestInfo,
  type SignedAction,
  type SignedAgentApproval,
  type SigningContext,
  type WithdrawInput,
} from './signed-actions';
export { DEFAULT_RETRY, IntentLedger, backoffDelay, deliverIntent, isRetriable, realTimers, type Intent, type IntentState, type RetryPolicy, type Timers } from './intents';
export { toAmount, toPrice, toSide, toSize, toTimeInForce, type AmountInput, type PriceInput, type SideInput, type SizeInput, type TimeInForceInput } from './inputs';
export { MarketFeed, parseMarketUpdate, socketBounds, type FeedOptions, type FeedSubscription, type MarketHandler, type MarketUpdate, type OrderEvent, type TradeEvent, type CancelEvent, type ResolutionEvent } from './feeds/market-feed';
export { OracleFeed, type OracleFeedOptions, type OracleHandler, type OraclePrice } from './feeds/oracle-feed';
export { SubscriptionSocket, FEED_HANDSHAKE_TIMEOUT_MS, FEED_PING_INTERVAL_MS, FEED_PONG_TIMEOUT_MS, MAX_FEED_FRAME_BYTES, type SocketState, type SubscriptionSocketOptions } from './feeds/subscription-socket';
export type * from './schemas';
