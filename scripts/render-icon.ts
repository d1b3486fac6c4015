/**
 * Renders resources/icon.svg to resources/icon.png (512x512) with headless Chromium.
 * Run after editing the SVG: `npx tsx scripts/render-icon.ts`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, noChromiumMessage } from '../e2e/chromium';

const SIZE = 512;
const executablePath = findChromium();
if (!executablePath) {
  console.error(noChromiumMessage());
  process.exit(1);
}

const svg = readFileSync(resolve('resources/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace(/width="\d+" height="\d+"/, `width="${SIZE}" height="${SIZE}"`)}</body></html>`,
  );
  await page.locator('svg').screenshot({ path: resolve('resources/icon.png'), omitBackground: true });
  console.log(`resources/icon.png written (${SIZE}x${SIZE})`);
} finally {
  await browser.close();
}
