/**
 * Which Chromium the e2e tests (and the icon renderer) use: CHROMIUM_PATH, then the
 * distribution's /usr/bin/chromium, then Playwright's own download if present.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const NO_CHROMIUM_MESSAGE =
  'No Chromium found: install it with `apt-get install chromium` (or `npx playwright install chromium`) or set CHROMIUM_PATH to a Chromium binary.';

/** Flags for a quiet, offline, root-friendly headless run. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
] as const;

/** The one sentence to print when findChromium() finds nothing. */
export function noChromiumMessage(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['CHROMIUM_PATH'];
  return fromEnv
    ? `No Chromium at CHROMIUM_PATH=${fromEnv}: point it at a Chromium binary or unset it to use \`apt-get install chromium\`.`
    : NO_CHROMIUM_MESSAGE;
}

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env['CHROMIUM_PATH'];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    const bundled = chromium.executablePath();
    return existsSync(bundled) ? bundled : null;
  } catch {
    return null;
  }
}
