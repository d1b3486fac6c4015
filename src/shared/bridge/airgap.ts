import { z } from 'zod';
import {
  address,
  bytes32,
  decimalString,
  humanString,
  isoTime,
  label,
  marketRef,
  sideName,
  timeInForceName,
} from './primitives';

/**
 * Air-gapped round trips (docs/airgap.md): the watch-only machine prepares unsigned requests, the
 * signing machine signs requests it did not build, and the watch-only machine sends the responses
 * that match what it prepared. The window never names a domain, chain or contract: main drafts
 * under the selected deployment's pin and signs only under domains it has pinned.
 */

export const watchOnlyInfo = z.object({ address, label: z.string(), createdAt: isoTime });
export const watchAddArgs = z.object({ address, label: label.optional() }).strict();

/** What the watch-only master can be asked to sign; the same set the issue lists. */
export const airgapAction = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('order'),
      ...marketRef.shape,
      side: sideName,
      price: humanString,
      size: humanString,
      timeInForce: timeInForceName,
    })
    .strict(),
  z.object({ kind: z.literal('cancel'), ...marketRef.shape, orderHash: bytes32 }).strict(),
  z.object({ kind: z.literal('cancelAll'), ...marketRef.shape }).strict(),
  z
    .object({
      kind: z.literal('cancelReplace'),
      ...marketRef.shape,
      cancelOrderHash: bytes32,
      side: sideName,
      price: humanString,
      size: humanString,
      timeInForce: timeInForceName,
    })
    .strict(),
  z.object({ kind: z.literal('claim'), ...marketRef.shape }).strict(),
  z.object({ kind: z.literal('withdrawal'), amount: humanString, receiver: address.optional() }).strict(),
  z.object({ kind: z.literal('approveAgent'), agent: address }).strict(),
  z.object({ kind: z.literal('revokeAgent') }).strict(),
]);
export const airgapPrepareArgs = z.object({ master: address, action: airgapAction }).strict();

const requestKind = z.enum([
  'order',
  'cancel',
  'cancel-all',
  'cancel-replace',
  'claim',
  'withdrawal',
  'agent-approval',
  'agent-revocation',
]);

/** An unsigned request in words, as both machines show it. */
export const requestWords = z.object({
  id: z.string(),
  kind: requestKind,
  title: z.string(),
  lines: z.array(z.string()),
  fingerprint: z.string(),
  signer: address,
  chainId: decimalString,
  verifyingContract: address,
  movesValue: z.boolean(),
  createdAt: isoTime,
});

/** A request this machine prepared, and how far its round trip has got. */
export const pendingRequest = requestWords.extend({
  state: z.enum(['waiting', 'signed', 'sent']),
  /** The exchange's answer once sent. */
  outcome: z.string().nullable(),
});

/** A request this (signing) machine received: whether its domain is pinned here, and whether it is signed. */
export const receivedRequest = requestWords.extend({
  domainPinned: z.boolean(),
  signed: z.boolean(),
});

export const envelopeRef = z.object({ kind: z.enum(['request', 'response']), id: z.string().min(1).max(64) }).strict();
export const envelopeTextResult = z.object({ text: z.string(), fileName: z.string() });

/** What reading an envelope did: a request to sign here, or a response matched to a request prepared here. */
export const inboxResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('request'), request: receivedRequest }),
  z.object({ kind: z.literal('response'), request: pendingRequest }),
]);

export const envelopeTextArgs = z.object({ text: z.string().max(1024 * 1024), via: z.enum(['file', 'qr']) }).strict();
export const requestRef = z.object({ id: z.string().min(1).max(64) }).strict();
export const submitResult = z.object({ status: z.string(), summary: z.string() });

export type WatchOnlyView = z.infer<typeof watchOnlyInfo>;
export type AirgapAction = z.infer<typeof airgapAction>;
export type RequestWords = z.infer<typeof requestWords>;
export type PendingRequestView = z.infer<typeof pendingRequest>;
export type ReceivedRequestView = z.infer<typeof receivedRequest>;
export type InboxResult = z.infer<typeof inboxResult>;
