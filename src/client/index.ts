// The exchange client library: HTTP reads and signed actions, intents, the doctor, feeds, book store and
// sync, account state, epochs, the exchange clock and the deposit client. Its only public surface: the
// app's main process, the devnet's bots, benchmarks and scripts import from here and nowhere deeper.
export {
  ExchangeClient,
  type AgentInput,
  type CancelOutcome,
  type CancelReplaceOutcome,
  type DeploymentContext,
  type ExchangeClientOptions,
  type IntentOutcome,
  type OrderOutcome,
  type SendOptions,
} from './exchange-client';
export {
  ExchangeReader,
  DEFAULT_BOOK_DEPTH,
  MAX_BOOK_DEPTH,
  MAX_FILLS_LIMIT,
  type FillsQuery,
} from './http/read-client';
export {
  HttpCore,
  DEFAULT_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  errorCodeOf,
  normaliseBaseUrl,
  resolveUrl,
  type CallOptions,
  type HttpCoreOptions,
  type HttpResponse,
  type ResponseTiming,
} from './http/http';
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
} from './actions/signed-actions';
export {
  DEFAULT_RETRY,
  IntentLedger,
  backoffDelay,
  deliverIntent,
  isRetriable,
  realTimers,
  type Intent,
  type IntentState,
  type RetryPolicy,
  type Timers,
} from './actions/intents';
export {
  toAmount,
  toPrice,
  toSide,
  toSize,
  toTimeInForce,
  defaultApprovalNonce,
  type AmountInput,
  type PriceInput,
  type SideInput,
  type SizeInput,
  type TimeInForceInput,
} from './actions/inputs';
export {
  MarketFeed,
  parseMarketUpdate,
  socketBounds,
  type FeedOptions,
  type FeedSubscription,
  type MarketHandler,
  type MarketUpdate,
  type OrderEvent,
  type TradeEvent,
  type CancelEvent,
  type ResolutionEvent,
} from './feeds/market-feed';
export { OracleFeed, type OracleFeedOptions, type OracleHandler, type OraclePrice } from './feeds/oracle-feed';
export {
  SubscriptionSocket,
  FEED_HANDSHAKE_TIMEOUT_MS,
  FEED_PING_INTERVAL_MS,
  FEED_PONG_TIMEOUT_MS,
  MAX_FEED_FRAME_BYTES,
  type SocketState,
  type SubscriptionSocketOptions,
} from './feeds/subscription-socket';
export { probeFeed } from './feeds/probe-feed';
export type * from './http/schemas';

// Trading state: books, account state, epochs, exchange clock.
export { BookStore, sameView, snapshotView, type PriceLevel, type BookLevels } from './book/book-store';
export { BookSync, type BookSyncHealth, type BookHealthState, type BookSyncOptions } from './book/book-sync';
export { AccountState, type AccountStateOptions, type OwnFill } from './account/account-state';
export { EpochWatcher, type EpochClaimable, type EpochWatcherOptions } from './time/epoch-watcher';
export { ExchangeClock } from './time/clock';

// Pricing: N(d2) fair value of an up/down market and the oracle volatility it needs (docs/fair-value.md).
export { digitalProbability, fairPrice, normalCdf, type DigitalInput } from './pricing/fair-value';
export {
  estimateVolatility,
  VOLATILITY_DEFAULTS,
  type PriceTick,
  type VolatilityEstimate,
  type VolatilityOptions,
} from './pricing/volatility';
export {
  fairValueFrom,
  fairValueOf,
  type FairValue,
  type FairValueInput,
  type FairValueParts,
} from './pricing/market-fair-value';

// On-chain deposits into the exchange's deposit ledger.
export {
  createDepositClient,
  type DepositClient,
  type DepositClientOptions,
  type DepositMode,
  type DepositOptions,
  type DepositPlan,
  type ChainDepositProgress,
  type ChainDepositResult,
  type DepositStage,
} from './deposit/client';
export { DepositError, toDepositError, type DepositErrorCode } from './deposit/errors';
export { randomPermitNonce, signDepositPermit, type DepositPermit } from './deposit/permit';
export { MAX_RPC_RESPONSE_BYTES, RpcTransportError, boundedGetUrl, rpcConnection } from './deposit/bounded-rpc';

// Air-gapped signing: unsigned requests, signed responses, emergency kits, UR/QR and file transport.
export * from './airgap';
