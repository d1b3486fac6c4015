/**
 * The size every bridge call's arguments must fit before anything parses them (main's dispatcher
 * and the preload both check it). The largest real arguments are the texts of an air-gapped
 * envelope or an emergency kit (up to 1 MiB each) and a cancel of many order ids; nothing the
 * window sends honestly comes near 10,000 values or 2 MiB, and zod's schemas nest a few levels.
 */
import { describeExcess, sizeExcess, type SizeBudget } from '../size-budget';

export const BRIDGE_ARG_BUDGET: SizeBudget = { values: 10_000, chars: 2 * 1024 * 1024, depth: 32 };

/** The refusal's sentence when `args` do not fit the budget, or null when they do. */
export function oversizedArgsSentence(args: unknown): string | null {
  const excess = sizeExcess(args, BRIDGE_ARG_BUDGET);
  if (excess === null) return null;
  return `This request is far larger than anything the app sends (${describeExcess(excess, BRIDGE_ARG_BUDGET)}), so it was refused. Nothing was changed.`;
}
