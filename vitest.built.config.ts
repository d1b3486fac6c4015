import { defineConfig } from 'vitest/config';

// Tests of the built app (out/): the main bundle booted under an Electron API double, and the
// installer packed and opened. `npm test` runs them in the `built` step, after `build`.
export default defineConfig({
  test: {
    include: ['test/built/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // One file at a time: packing and booting are CPU-bound on a shared machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
