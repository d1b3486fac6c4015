/**
 * The working-order defaults' shape and values (settings-schema.ts validates them): apart from the
 * schema so that the window reads them without bringing zod into its bundle.
 */
export interface WorkingDefaults {
  /** The default bracket's take-profit and stop, in cents from its entry's price. */
  takeProfitCents: string;
  stopCents: string;
  /** How long before the epoch's end a time exit flattens, in seconds. */
  timeExitSeconds: number;
}

export const DEFAULT_WORKING_DEFAULTS: WorkingDefaults = { takeProfitCents: '5', stopCents: '5', timeExitSeconds: 10 };
