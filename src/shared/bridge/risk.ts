/**
 * The risk guards on the bridge (docs/risk-guards.md): what the limits are and how much of today's
 * loss budget is used (class read), and the one method that changes the limits (stricter at once,
 * looser only after main's dialog). There is no method that overrides a limit: a one-off override
 * is main's own order dialog.
 */
import { z } from 'zod';
import { RiskLimitsSchema, SettingsSchema } from '../settings-schema';
import { confirmed } from './keys';
import { address, decimalString } from './primitives';

export const riskStatus = z.object({
  limits: RiskLimitsSchema,
  /** The selected account the budget is for; null with none selected or not connected. */
  account: address.nullable(),
  /** The UTC day the budget runs for, e.g. "2026-11-26". */
  day: z.string().nullable(),
  /** Equity at fair value when the day's budget started (deposits and withdrawals since added). */
  startEquity: decimalString.nullable(),
  /** Today's loss so far (never negative), and the day's limit, in amount units. */
  lossToday: decimalString.nullable(),
  lossLimit: decimalString.nullable(),
  /**
   * The most the open orders and orders on their way could still lose if taken at a stale price (a bid
   * as if fair fell to 0, an ask as if it rose to $1): counted with today's loss against the limit
   * when an order that adds risk is checked. Null when not read.
   */
  openWorst: decimalString.nullable(),
  /** True once today's loss reached the limit: only orders that reduce a position go. */
  spent: z.boolean(),
  /** Orders signed for the account in the last 60 seconds. */
  ordersLastMinute: z.number().int().min(0),
  /** Why the budget cannot be shown, in words; null when it can. */
  note: z.string().nullable(),
});
export type RiskStatus = z.infer<typeof riskStatus>;

/** A change of some limits; the others stay. */
export const riskLimitsChange = RiskLimitsSchema.partial().strict();

export const riskMethods = {
  'risk.status': {
    args: z.tuple([]),
    result: riskStatus,
    summary: 'The risk limits and how much of today’s loss budget the selected account has used.',
  },
  'settings.setRiskLimits': {
    args: z.tuple([riskLimitsChange]),
    result: confirmed(SettingsSchema),
    summary:
      'Change risk limits: stricter ones at once, looser ones only after the user agrees in a dialog owned by main.',
  },
} as const;
