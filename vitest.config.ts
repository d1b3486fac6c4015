import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer';

// Unit and integration tests run under node. Integration tests start their own
// services on ephemeral loopback ports, so files may run in parallel.
// test/built/ needs the build: it runs in its own step after it (vitest.built.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/built/**', '**/node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Most files wait on sockets, chains and clocks rather than the CPU: four at once on a 2-core
    // machine (vitest's default is cores − 1, one here). UNIT_WORKERS overrides.
    maxWorkers: Number(process.env['UNIT_WORKERS'] ?? '4'),
    // The files that wait longest start first, so none of them is the run's tail.
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
