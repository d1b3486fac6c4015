/**
 * Practice mode on the bridge (docs/practice-mode.md): a local exchange with play money that main
 * starts in a worker of its own. The window reads where it stands, asks to enter it, adds play money
 * and starts over; leaving it for a real deployment is deployments.select, with its dialog.
 */
import { z } from 'zod';
import { confirmed } from './keys';
import { address, decimalString } from './primitives';

export const practiceState = z.enum(['off', 'starting', 'ready', 'failed']);

export const practiceStatus = z.object({
  /** Practice is the selected deployment (the badge and the accent colour follow this). */
  active: z.boolean(),
  /** The practice exchange's worker: not started, starting, answering, or stopped with a reason. */
  state: practiceState,
  /** What the worker is doing while it starts, in words ("starting the exchange"). */
  stage: z.string().nullable(),
  /** How long the last start took until the first book could be read, ms; null before. */
  startupMs: z.number().nonnegative().nullable(),
  /** Why practice stopped or could not start, a sentence; null when nothing went wrong. */
  problem: z.string().nullable(),
  /** The practice keys (made for practice only; never offered on a real deployment). */
  keys: z.array(address).max(256),
});
export type PracticeStatus = z.infer<typeof practiceStatus>;
export type PracticeState = z.infer<typeof practiceState>;

export const practiceMethods = {
  'practice.status': {
    args: z.tuple([]),
    result: practiceStatus,
    summary: 'Whether practice is selected and where its local exchange stands.',
  },
  'practice.start': {
    args: z.tuple([]),
    result: confirmed(practiceStatus),
    summary:
      'Enter practice: main starts its local exchange with play money and a practice key; leaving a real deployment for it takes a dialog owned by main.',
  },
  'practice.addFunds': {
    args: z.tuple([]),
    result: z.object({ amount: decimalString, account: address }),
    summary: 'Add $1,000 of play money to the selected practice account (practice only).',
  },
  'practice.reset': {
    args: z.tuple([]),
    result: confirmed(practiceStatus),
    summary:
      'Start practice over (positions, orders and history of practice are removed) after a dialog owned by main.',
  },
} as const;
