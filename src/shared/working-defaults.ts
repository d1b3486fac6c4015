/**
 * The working-order defaults' shape and values (settings-schema.ts validates them), and a roll's
 * limit (bridge/working-orders.ts parses with it): apart from the schemas so that the window reads
 * them without bringing zod into its bundle.
 */
export interface WorkingDefaults {
  /** The default bracket's take-profit and stop, in cents from its entry's price. */
  takeProfitCents: string;
  stopCents: string;
  /** How long before the epoch's end a time exit flattens, in seconds. */
  timeExitSeconds: number;
}

/** The most quotes one roll places in an epoch. */
export const ROLL_MAX_QUOTES = 8;

export const DEFAULT_WORKING_DEFAULTS: WorkingDefaults = { takeProfitCents: '5', stopCents: '5', timeExitSeconds: 10 };
