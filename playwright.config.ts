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
  // The build machine's CPUs are shared: one worker, no retries hiding flakiness.
  workers: 1,
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
