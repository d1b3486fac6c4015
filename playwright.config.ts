import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, noChromiumMessage } from './e2e/chromium';

const executablePath = findChromium();
if (!executablePath) {
  // One sentence, no stack: the e2e step cannot run without a browser.
  console.error(noChromiumMessage());
  process.exit(1);
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/playwright',
  // Two workers, each with its own devnet, browser and cores (fixtures are per test or per worker, and
  // every core has its own store, keychain service and ports): the specs mostly wait on epochs and the
  // exchange, so two overlap on a 2-core machine. No retries hiding flakiness. E2E_WORKERS overrides.
  workers: Number(process.env['E2E_WORKERS'] ?? '2'),
  retries: 0,
  forbidOnly: !!process.env['CI'],
  timeout: 30_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1360, height: 860 },
    launchOptions: { executablePath, args: [...CHROMIUM_ARGS] },
    trace: 'retain-on-failure',
  },
});
