/**
 * Value shapes shared by every bridge schema. Protocol integers cross the bridge as canonical
 * decimal strings (not bigint) so that the same contract works over Electron IPC and over the
 * JSON loopback used by the end-to-end harness; the window converts with BigInt() when it must
 * do arithmetic and never uses floats for money.
 */
import { z } from 'zod';

export const decimalString = z.string().regex(/^(0|[1-9][0-9]*)$/, 'a canonical unsigned decimal string');
export const signedDecimalString = z.string().regex(/^(0|-?[1-9][0-9]*)$/, 'a canonical signed decimal string');
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address');
export const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hash');
/** Human input exactly as typed: main parses it with the protocol's unit rules. */
export const humanString = z.string().trim().min(1).max(64);
/** A ticket field as typed, possibly empty: main names a missing value in words rather than refusing the call. */
export const typedField = z.string().max(64);
export const label = z.string().trim().min(1).max(64);
export const isoTime = z.string().min(1);
export const unixMs = z.number().int().nonnegative();

export const sideName = z.enum(['buy', 'sell']);
export const timeInForceName = z.enum(['GTC', 'IOC', 'FOK', 'ALO']);
export const keyRole = z.enum(['master', 'agent']);
/** Which key signs a trading action: the master itself, or its approved agent. */
export const signAs = z.enum(['master', 'agent']);

/** A market is one asset id and one epoch: the unit a book, a position and a claim belong to. */
export const marketRef = z.object({ assetId: decimalString, epoch: decimalString }).strict();

export type DecimalString = z.infer<typeof decimalString>;
export type SideName = z.infer<typeof sideName>;
export type TimeInForceName = z.infer<typeof timeInForceName>;
export type KeyRole = z.infer<typeof keyRole>;
export type SignAs = z.infer<typeof signAs>;
export type MarketRef = z.infer<typeof marketRef>;
