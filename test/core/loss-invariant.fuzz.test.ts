// The loss-limit invariant under a short seeded adversarial run (the long one: `npm run bench -- loss-fuzz`).
// What it plays and measures: loss-fuzz.ts. A failure prints the seed and the step.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzzWorld, runLossFuzz, type FuzzWorld } from './loss-fuzz';

const SEED = Number(process.env['LOSS_FUZZ_SEED'] ?? 20261127);
const STEPS = Number(process.env['LOSS_FUZZ_STEPS'] ?? 60);

let world: FuzzWorld | undefined;

beforeAll(async () => {
  world = await fuzzWorld();
}, 180_000);

afterAll(async () => {
  await world?.close();
});

it(`a hostile window loses at most the daily limit (seed ${SEED}, ${STEPS} steps)`, async () => {
  const report = await runLossFuzz(world!, SEED, STEPS);
  expect(report.violation, `seed ${SEED}`).toBeNull();
  expect(report.steps).toBe(STEPS);
  expect(report.limit).toBe(100_000_000n);
  // It did trade, and main did refuse: a run that only ever refused (or never tried) proves nothing.
  expect(report.orders).toBeGreaterThan(10);
  expect(report.orders - report.refused).toBeGreaterThan(0);
  expect(report.worstLoss).toBeLessThanOrEqual(report.limit + BigInt(report.orders) * 10_000n);
}, 600_000);
