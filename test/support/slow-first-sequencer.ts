/**
 * Vitest's order with the files that wait longest by design first. With a cache vitest already runs
 * the longest files first; a clean clone has none and runs larger files first, which started the
 * 110 s fair-value agreement (it holds 90 s of oracle ticks) last and made it the suite's tail.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that wait on the devnet's clock (epochs, ticks) for most of their time, longest first. */
export const LONGEST_FIRST = [
  'test/devnet/fair-value-agreement.test.ts',
  'test/core/hostile-window.test.ts',
  'test/core/working-orders.test.ts',
  'test/core/differential.test.ts',
  'test/core/loss-invariant.fuzz.test.ts',
  'test/devnet/conservation.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.replaceAll('\\', '/').endsWith(p));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
