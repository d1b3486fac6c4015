#!/usr/bin/env node
// `npm start`: build and launch the desktop app (`electron-vite preview`).
// `npm run dev`: the same with hot reload (`electron-vite dev`).
//
// With no deployment configured, the embedded devnet is started first (see
// startDevnetIfNeeded below; the devnet is not built yet).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.slice(2).includes('--dev');

/**
 * Where the Electron binary should be, without loading the `electron` package: requiring
 * it tries to download a missing binary, which is not what a launcher should do.
 */
function electronBinary() {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const full = override ? path.join(override, relative) : path.join(pkg, 'dist', relative);
  return existsSync(full) ? full : null;
}

/**
 * ── DEVNET HOOK ──────────────────────────────────────────────────────────────────────────
 * When no deployment is configured, start the embedded devnet (src/devnet: exchange
 * service, chain, oracle, liquidity bot) and hand its endpoints to the app.
 * The devnet is being built in src/devnet; until it exists this only says so.
 * Returns a function that stops whatever was started.
 */
async function startDevnetIfNeeded() {
  console.log('Embedded devnet: not built yet; the app starts with no deployment.');
  return async () => {};
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  if (!electronBinary()) {
    console.error(
      'The Electron binary is not installed (node_modules/electron has no dist): reinstall with Node 22.12 or newer and without ELECTRON_SKIP_BINARY_DOWNLOAD, e.g. `rm -rf node_modules/electron && npm install`.',
    );
    process.exit(1);
  }
  const stopDevnet = await startDevnetIfNeeded();
  const electronVite = path.join(root, 'node_modules', '.bin', 'electron-vite');
  // `preview` builds first, then launches Electron on the built app.
  const code = await run(electronVite, dev ? ['dev'] : ['preview']);
  await stopDevnet();
  process.exit(code);
}

main().catch((error) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
