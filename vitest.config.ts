import { defineConfig } from 'vitest/config';

// Unit and integration tests run under node. Integration tests start their own
// services on ephemeral loopback ports, so files may run in parallel.
// test/built/ needs the build: it runs in its own step after it (vitest.built.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/built/**', '**/node_modules/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
