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

/** What the short run must play at least once (the rest as drawn): the acceptance list's rarer steps. */
const MUST_PLAY = [
  'restart the core over its store',
  'market list edited (in place)',
  'switch accounts for a while, watch some, read the budget',
  'air-gapped order',
  'lock and unlock',
  'oracle silent for a spell',
  'wait for the short market to roll',
];

it(`a hostile window loses at most the daily limit (seed ${SEED}, ${STEPS} steps)`, async () => {
  // The composite attack steps (each several seconds) only where MUST_PLAY names them: the long run draws them.
  const report = await runLossFuzz(world!, SEED, STEPS, undefined, MUST_PLAY, [], 0);
  expect(report.violation, `seed ${SEED}`).toBeNull();
  expect(report.steps).toBe(STEPS);
  expect(report.limit).toBe(100_000_000n);
  // It did trade, and main did refuse: a run that only ever refused (or never tried) proves nothing.
  expect(report.orders).toBeGreaterThan(10);
  expect(report.orders - report.refused).toBeGreaterThan(0);
  expect(report.worstLoss).toBeLessThanOrEqual(report.limit + BigInt(report.orders) * 10_000n);
  for (const kind of MUST_PLAY) expect(report.kinds[kind], kind).toBeGreaterThan(0);
  // The 30-second market rolled at least once during the run (its epochs end and resolve).
  expect(report.kinds['epoch rolled'], 'an epoch roll').toBeGreaterThan(0);
}, 600_000);
