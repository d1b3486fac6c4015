import { z } from 'zod';
import { kitView } from './kit';
import { confirmed } from './keys';
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
  z.object({ kind: z.literal('kit'), kit: kitView }),
]);

export const envelopeTextArgs = z.object({ text: z.string().max(1024 * 1024), via: z.enum(['file', 'qr']) }).strict();
export const requestRef = z.object({ id: z.string().min(1).max(64) }).strict();
/** The exchange's answer to a sent request; the window words it with the request it shows. */
export const submitResult = z.object({ status: z.string() });

export type WatchOnlyView = z.infer<typeof watchOnlyInfo>;
export type AirgapAction = z.infer<typeof airgapAction>;
export type RequestWords = z.infer<typeof requestWords>;
export type PendingRequestView = z.infer<typeof pendingRequest>;
export type ReceivedRequestView = z.infer<typeof receivedRequest>;
export type InboxResult = z.infer<typeof inboxResult>;
export type AirgapSubmitResult = z.infer<typeof submitResult>;

const list = <T extends z.ZodType>(item: T) => z.array(item);
const savedFile = z.object({ path: z.string() });

/** The airgap.* bridge methods (their capability rows are in capabilities.ts). */
export const airgapMethods = {
  'airgap.watchList': {
    args: z.tuple([]),
    result: list(watchOnlyInfo),
    summary: 'The watch-only accounts: addresses watched without a key.',
  },
  'airgap.watchAdd': {
    args: z.tuple([watchAddArgs]),
    result: watchOnlyInfo,
    summary: 'Watch an account by its address alone; no key is added and nothing can be signed for it here.',
  },
  'airgap.watchRemove': {
    args: z.tuple([address]),
    result: z.boolean(),
    summary: 'Stop watching an address.',
  },
  'airgap.prepare': {
    args: z.tuple([airgapPrepareArgs]),
    result: pendingRequest,
    summary:
      'Draft the complete unsigned request of one action of a watch-only account under the pinned domain, and keep it until its response returns.',
  },
  'airgap.pending': {
    args: z.tuple([]),
    result: list(pendingRequest),
    summary: 'The requests prepared here, with their fingerprints and how far each has got.',
  },
  'airgap.discard': {
    args: z.tuple([requestRef]),
    result: z.boolean(),
    summary: 'Forget a prepared request.',
  },
  'airgap.received': {
    args: z.tuple([]),
    result: list(receivedRequest),
    summary: 'The requests opened here for signing, in words, and whether each is signed.',
  },
  'airgap.envelopeText': {
    args: z.tuple([envelopeRef]),
    result: envelopeTextResult,
    summary: 'The envelope text of a request prepared here or a response signed here, for a file or QR codes.',
  },
  'airgap.saveFile': {
    args: z.tuple([envelopeRef]),
    result: confirmed(savedFile),
    summary:
      'Save a request prepared here or a response signed here to a file the user picks in a dialog owned by main.',
  },
  'airgap.openFile': {
    args: z.tuple([]),
    result: confirmed(inboxResult),
    summary: 'Read a request or a response from a file the user picks in a dialog owned by main, and check it.',
  },
  'airgap.receiveText': {
    args: z.tuple([envelopeTextArgs]),
    result: inboxResult,
    summary: 'Read a request or a response from its envelope text (e.g. scanned QR codes) and check it.',
  },
  'airgap.pinDomain': {
    args: z.tuple([requestRef]),
    result: confirmed(receivedRequest),
    summary: "Trust a received request's signing domain for offline signing, after a dialog owned by main.",
  },
  'airgap.sign': {
    args: z.tuple([requestRef]),
    result: confirmed(receivedRequest),
    summary:
      'Sign a received request with the vault key of its signer, under a pinned domain only; withdrawals and agent approvals (or all, when chosen) after a dialog owned by main.',
  },
  'airgap.submit': {
    args: z.tuple([requestRef]),
    result: confirmed(submitResult),
    summary:
      'Send a prepared request whose signed response matched it, once; withdrawals and agent approvals after a dialog owned by main.',
  },
  'airgap.alwaysConfirm': {
    args: z.tuple([]),
    result: z.boolean(),
    summary: 'Whether every offline signature is confirmed in a dialog owned by main.',
  },
  'airgap.setAlwaysConfirm': {
    args: z.tuple([z.boolean()]),
    result: z.boolean(),
    summary:
      'Confirm every offline signature, or only those that move value (turning it off asks in a dialog owned by main).',
  },
} as const;
