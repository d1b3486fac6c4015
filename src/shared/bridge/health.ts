import { z } from 'zod';
import { address, decimalString, unixMs } from './primitives';
import { feedHealthState } from './markets';
import { offlineState } from './offline-mode';

export const feedHealth = z.object({
  feed: z.enum(['market', 'oracle', 'http', 'chain']),
  state: feedHealthState,
  reason: z.string(),
  latencyMs: z.number().nonnegative().nullable(),
  lastMessageAt: unixMs.nullable(),
  resyncs: z.number().int().nonnegative(),
});

const spenders = z.object({
  depositLedger: address.nullable(),
  settlementToken: address.nullable(),
  permit2: address.nullable(),
});
const domainFacts = z.object({
  chainId: decimalString,
  verifyingContract: address,
  domainName: z.string(),
  spenders: spenders.optional(),
});

export const pinState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('unpinned') }),
  /** The deployment answered, but the user has not confirmed its facts yet: nothing is signed. */
  z.object({ kind: z.literal('unconfirmed'), observed: domainFacts, sentence: z.string() }),
  z.object({ kind: z.literal('pinned'), ...domainFacts.shape }),
  z.object({
    kind: z.literal('changed'),
    pinned: domainFacts,
    observed: domainFacts,
    sentence: z.string(),
  }),
]);

export const connectionView = z.object({
  deploymentId: z.string().nullable(),
  deploymentName: z.string().nullable(),
  devnet: z.boolean(),
  /** Practice mode: play money on a local exchange (the window shows the PRACTICE badge). */
  practice: z.boolean(),
  pin: pinState,
  feeds: z.array(feedHealth),
  /** Estimated offset of the exchange's clock from ours, in ms. */
  clockOffsetMs: z.number().nullable(),
  /** Half-width of that estimate's uncertainty, in ms (null before the first sample). */
  clockUncertaintyMs: z.number().nullable(),
  /** Whether (and why) the app is in offline mode: no connection is opened while it is. */
  offline: offlineState,
});

export type FeedHealth = z.infer<typeof feedHealth>;
export type PinState = z.infer<typeof pinState>;
export type ConnectionView = z.infer<typeof connectionView>;
