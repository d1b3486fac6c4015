// `npm run bench -- loss-fuzz`: the loss-limit invariant under long seeded adversarial runs on a real
// core and devnet (test/core/loss-fuzz.ts says what is played and measured). Prints, per seed, the
// steps, orders, fills, refusals, main's own cancels and the worst loss against the limit; the first
// violation with its seed and step. LOSS_FUZZ_SEEDS (comma-separated) and LOSS_FUZZ_STEPS set the run;
// LOSS_FUZZ_ONLY ('|'-separated starts of step names) keeps only those kinds; LOSS_FUZZ_LOG=1 prints every step;
// LOSS_FUZZ_ATTACKS sets the weight of each composite attack step (default 1; 0 leaves them out), and
// LOSS_FUZZ_ONLY='attack 3' aims a run at one of them.
import { fuzzWorld, runLossFuzz } from '../test/core/loss-fuzz';
import type { Benchmark } from './harness';

const usd = (amount: bigint): string => `$${(Number(amount) / 1e6).toFixed(2)}`;

const bench: Benchmark = {
  name: 'loss-fuzz',
  async run(report) {
    const seeds = (process.env['LOSS_FUZZ_SEEDS'] ?? '1,2,3').split(',').map(Number);
    const steps = Number(process.env['LOSS_FUZZ_STEPS'] ?? 400);
    // A run aimed at one attack: only the kinds of step named here ('|'-separated starts of their names).
    const only = (process.env['LOSS_FUZZ_ONLY'] ?? '').split('|').filter(Boolean);
    const attackWeight = Number(process.env['LOSS_FUZZ_ATTACKS'] ?? 1);
    let violations = 0;
    for (const seed of seeds) {
      // One world per seed: a fresh $1,000 account and today's budget untouched.
      const world = await fuzzWorld(`loss-fuzz-bench-${seed}-`);
      try {
        const started = Date.now();
        const log = process.env['LOSS_FUZZ_LOG'] ? (line: string) => console.log(`    ${line}`) : undefined;
        const r = await runLossFuzz(world, seed, steps, log, [], only, attackWeight);
        const line = `seed ${seed}: ${r.steps} steps, ${r.orders} orders (${r.refused} refused, ${r.fills} filled at once), main cancelled ${r.cancelledByMain}; worst loss ${usd(r.worstLoss)} of ${usd(r.limit)} (${((Number(r.worstLoss) / Number(r.limit || 1n)) * 100).toFixed(1)} %) in ${((Date.now() - started) / 1000).toFixed(0)} s`;
        console.log(`  ${line}`);
        console.log(`    steps by kind: ${JSON.stringify(r.kinds)}`);
        console.log(`    refusals by code: ${JSON.stringify(r.refusedBy)}`);
        report.notes.push(line);
        report.ratios.push({
          label: `seed ${seed}: worst loss / limit`,
          value: Number(r.worstLoss) / Number(r.limit || 1n),
          target: '<= 1',
          met: r.violation === null,
        });
        if (r.violation) {
          violations++;
          console.log(`    VIOLATION: ${r.violation}`);
          report.notes.push(`VIOLATION: ${r.violation}`);
        }
      } finally {
        await world.close();
      }
    }
    if (violations > 0) throw new Error(`${violations} of ${seeds.length} seeds broke the invariant`);
  },
};

export default bench;
