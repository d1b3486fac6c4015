import { z } from 'zod';
import { address, decimalString, humanString, marketRef, sideName, timeInForceName } from './primitives';

/**
 * Offline signing: the user builds one of a fixed set of actions, main signs it with no network
 * using the pinned domain, and the result is a file another machine can submit. There is no
 * way to hand main arbitrary bytes or typed data to sign.
 */
export const offlineDomain = z
  .object({ chainId: decimalString, verifyingContract: address, domainName: z.string().min(1).max(100) })
  .strict();

export const offlineAction = z.discriminatedUnion('kind', [
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
  z.object({ kind: z.literal('cancelAll'), ...marketRef.shape }).strict(),
  z.object({ kind: z.literal('claim'), ...marketRef.shape }).strict(),
  z.object({ kind: z.literal('withdrawal'), amount: humanString, receiver: address.optional() }).strict(),
  z.object({ kind: z.literal('revokeAgent') }).strict(),
]);

/**
 * No domain, chain or contract: main signs under the pinned domain of the selected deployment only,
 * so a window cannot have anything signed for another exchange or chain.
 */
export const offlineSignArgs = z.object({ signer: address, action: offlineAction }).strict();

/** The exported file: a versioned envelope around a signed request body exactly as it is sent. */
export const signedPayload = z
  .object({
    format: z.literal('exchange-terminal/signed-request@1'),
    kind: z.enum(['orders', 'cancels', 'claim', 'withdrawals', 'agentsRevoke']),
    path: z.string(),
    domain: offlineDomain,
    signedAt: z.string(),
    body: z.record(z.string(), z.unknown()),
  })
  .strict();

export const payloadDescription = z.object({
  kind: z.string(),
  signer: address,
  sender: address,
  /** Human lines, e.g. "Buy 10 contracts at 62.5¢ on BTC 5m epoch 12". */
  lines: z.array(z.string()),
  digest: z.string(),
  signatureValid: z.boolean(),
  domainMatchesDeployment: z.boolean().nullable(),
  warnings: z.array(z.string()),
});

export type OfflineAction = z.infer<typeof offlineAction>;
export type SignedPayload = z.infer<typeof signedPayload>;
export type PayloadDescription = z.infer<typeof payloadDescription>;
