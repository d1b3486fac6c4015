import { z } from 'zod';

/**
 * QR transport of air-gapped envelopes (requests, responses, emergency kits). Main does the UR coding
 * and every check; the window only draws the part texts main gives it and hands back the texts its
 * camera or an image file read. Nothing here signs, sends or changes trust.
 */

/** What a scan may accept: the envelope formats by their short names. */
export const airgapPayloadName = z.enum(['request', 'response', 'kit']);

/** Ids main hands out for a show or scan session: short random tokens. */
export const qrSessionId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** An envelope's JSON text (file form or compact), checked in full by main before anything is shown. */
export const envelopeText = z
  .string()
  .min(1)
  .max(1024 * 1024);

/** One text read from a QR code. Longer than any part of ours, so main words the refusal itself. */
export const qrPartText = z.string().max(16_000);

export const qrShowArgs = z.object({ text: envelopeText }).strict();

/** What an envelope is, in main's words: the window shows it beside the codes so both screens can be compared. */
export const envelopeFacts = z.object({
  payload: airgapPayloadName,
  /** e.g. "an unsigned order request". */
  what: z.string(),
  /** The request kind ("order", "withdrawal", …) or "emergency-kit". */
  kind: z.string(),
  fingerprint: z.string(),
});

export const qrShowView = z.object({
  showId: qrSessionId,
  envelope: envelopeFacts,
  /** How many distinct parts make the whole (1: a single, still code). */
  parts: z.number().int().min(1),
});

export const qrPartsArgs = z.object({ showId: qrSessionId, count: z.number().int().min(1).max(32) }).strict();

export const scanBeginArgs = z
  .object({
    accept: z.array(airgapPayloadName).min(1).max(3),
    /** The camera may be opened only while a scan that asked for it is open. */
    camera: z.boolean(),
  })
  .strict();

export const scanPartArgs = z.object({ scanId: qrSessionId, text: qrPartText }).strict();

export const scanIdArgs = z.object({ scanId: qrSessionId }).strict();
export const showIdArgs = z.object({ showId: qrSessionId }).strict();

export const scanProblem = z.object({ code: z.string(), sentence: z.string() });

export const scanProgress = z.object({
  scanId: qrSessionId,
  /** collecting: more parts needed; complete: main received the envelope; failed: start over. */
  state: z.enum(['collecting', 'complete', 'failed']),
  /** Distinct codes taken so far (fountain-coded mixes included; refused and repeated ones not). */
  received: z.number().int().min(0),
  /** How many plain parts make the whole; 0 until the first part of a multi-part payload is read. */
  expected: z.number().int().min(0),
  /** Rough completion, 0 to 1 (fountain codes need a few more parts than `expected`). */
  fraction: z.number().min(0).max(1),
  /** Why the last text was refused (it changed nothing), or why the scan failed. */
  problem: scanProblem.nullable(),
  /** What main received, once complete. */
  envelope: envelopeFacts.nullable(),
});

export type AirgapPayloadName = z.infer<typeof airgapPayloadName>;
export type EnvelopeFacts = z.infer<typeof envelopeFacts>;
export type QrShowView = z.infer<typeof qrShowView>;
export type ScanProgress = z.infer<typeof scanProgress>;
export type ScanProblem = z.infer<typeof scanProblem>;
