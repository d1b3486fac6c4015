import { z } from 'zod';
import { confirmed } from './keys';
import { address, decimalString } from './primitives';

/**
 * The emergency kit (docs/airgap.md): cancel-alls and an agent revocation pre-signed by the master on
 * the machine that holds its key, kept and sent by a machine that holds none. The window names
 * markets by asset id from the selected deployment's own list and counts; main signs under the pinned
 * domain only, after its own dialog.
 */

/** Bounds of a kit built here: small enough for a few QR codes' worth of minutes, large enough for a day. */
export const KIT_MAX_MARKETS = 8;
export const KIT_MAX_EPOCHS = 288;
export const KIT_MAX_PER_EPOCH = 8;

export const kitBuildArgs = z
  .object({
    signer: address,
    assetIds: z.array(decimalString).min(1).max(KIT_MAX_MARKETS),
    /** How many epochs from the current one on, the current one included. */
    epochs: z.number().int().min(1).max(KIT_MAX_EPOCHS),
    perEpoch: z.number().int().min(1).max(KIT_MAX_PER_EPOCH),
    revokeAgent: z.boolean(),
  })
  .strict();

/** A stored kit's id: what kit.build or an import answered. */
export const kitId = z.string().regex(/^[0-9a-f]{32}$/, 'a kit id: 32 lowercase hex digits');

export const kitMarketView = z.object({
  assetId: decimalString,
  label: z.string(),
  fromEpoch: decimalString,
  toEpoch: decimalString,
  until: z.string(),
  total: z.number().int(),
  used: z.number().int(),
  /** Per epoch of the range (bounded by KIT_MAX_EPOCHS): how many of its entries are used. */
  epochs: z.array(z.object({ epoch: decimalString, used: z.number().int(), total: z.number().int() })),
});

export const kitView = z.object({
  id: kitId,
  fingerprint: z.string(),
  origin: z.enum(['made', 'imported']),
  /** Made here, a file picked in main's dialog, or text from the window (QR or pasted: fewer slots). */
  source: z.enum(['build', 'file', 'window']),
  signer: address,
  createdAt: z.string(),
  storedAt: z.string(),
  /** The latest moment any market of the kit is covered until. */
  until: z.string(),
  perEpoch: z.number().int(),
  markets: z.array(kitMarketView),
  revocation: z.enum(['none', 'unused', 'used']),
  /** False when the kit was signed for another domain or contracts than the selected deployment's pin. */
  matchesDeployment: z.boolean(),
});

export const panicOutcome = z.object({
  what: z.string(),
  result: z.enum(['sent', 'already-used', 'skipped', 'failed']),
  sentence: z.string(),
});

export const panicResult = z.object({
  kitId,
  outcomes: z.array(panicOutcome),
  /** What the kit could not help with now (outside its epochs, or every entry of the epoch used). */
  gaps: z.array(z.string()),
});

/** The kit.* rows of the bridge contract (src/shared/bridge.ts spreads them in). */
export const kitMethods = {
  'kit.build': {
    args: z.tuple([kitBuildArgs]),
    result: confirmed(kitView),
    summary:
      'Pre-sign an emergency kit (cancel-alls over the next epochs, an agent revocation) under the pinned domain, after a dialog owned by main.',
  },
  'kit.list': {
    args: z.tuple([]),
    result: z.array(kitView),
    summary: 'The emergency kits kept here, with what is used.',
  },
  'kit.saveFile': {
    args: z.tuple([kitId]),
    result: confirmed(z.object({ path: z.string() })),
    summary: 'Save a kept kit to a file the user picks in a dialog owned by main.',
  },
  'kit.openFile': {
    args: z.tuple([]),
    result: confirmed(kitView),
    summary: 'Take in a kit from a file the user picks in a dialog owned by main, checked against the pin.',
  },
  'kit.importText': {
    args: z.tuple([z.string().max(1024 * 1024)]),
    result: kitView,
    summary: 'Take in a kit from its text (pasted or scanned), checked against the pin.',
  },
  'kit.remove': {
    args: z.tuple([kitId]),
    result: confirmed(z.null()),
    summary: 'Remove a kept kit after a dialog owned by main.',
  },
  'kit.panic': {
    args: z.tuple([kitId.nullable()]),
    result: z.array(panicResult),
    summary:
      'Send the pre-signed cancel-alls of the current epochs and the agent revocation of one kit, or of every kit for the selected deployment.',
  },
} as const;

export type KitBuildArgs = z.infer<typeof kitBuildArgs>;
export type KitView = z.infer<typeof kitView>;
export type KitMarketView = z.infer<typeof kitMarketView>;
export type PanicOutcome = z.infer<typeof panicOutcome>;
export type PanicResult = z.infer<typeof panicResult>;
