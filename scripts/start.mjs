#!/usr/bin/env node
// `npm start`: build and launch the desktop app (`electron-vite preview`).
// `npm run dev`: the same with hot reload (`electron-vite dev`).
//
// First run: Node too old for Electron is refused in one sentence; a missing Electron binary is
// fetched with Electron's own installer, or one sentence says why it could not be
// (scripts/launcher/). When the selected deployment is the built-in devnet (the default), the
// embedded devnet is started first (startDevnet below). EXCHANGE_TERMINAL_NO_DEVNET=1 skips it.
// `npm start -- --offline` (or EXCHANGE_TERMINAL_OFFLINE=1) starts the app in offline mode: no devnet,
// and the app opens no connection (the flag reaches main as EXCHANGE_TERMINAL_OFFLINE=1).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronPackage, fetchElectronBinary, findElectronBinary } from './launcher/electron-binary.mjs';
import { devnetWanted, launch, offlineRequested } from './launcher/first-run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dev = args.includes('--dev');
// electron-vite starts Electron itself, so main learns of the flag through the environment it inherits.
if (offlineRequested({ argv: args, env: process.env })) process.env.EXCHANGE_TERMINAL_OFFLINE = '1';
const electronDir = path.join(root, 'node_modules', 'electron');

/** Where Electron keeps userData for this app (app.getPath('userData') with productName). */
function userDataDir() {
  const name = 'Exchange Terminal';
  const home = process.env.HOME ?? process.env.USERPROFILE ?? '';
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', name);
  if (process.platform === 'win32')
    return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), name);
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), name);
}

function settingsText() {
  const file = path.join(userDataDir(), 'exchange-terminal.json'); // src/main/electron/store.ts
  try {
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/**
 * ── DEVNET HOOK ──────────────────────────────────────────────────────────────────────────
 * When the selected deployment is the built-in devnet (launcher/first-run.mjs devnetWanted), start it first (`tsx src/devnet/cli.ts`,
 * a child process: main never imports src/devnet) and wait for its `DEVNET READY {json}` line.
 * Its devnet.json (endpoints and funded demo accounts) reaches main through
 * EXCHANGE_TERMINAL_DEVNET_ACCOUNTS (src/main/core/devnet/devnet-accounts.ts).
 * Returns a function that stops whatever was started.
 */
async function startDevnet() {
  const cli = path.join(root, 'src', 'devnet', 'cli.ts');
  if (!existsSync(cli)) {
    console.log('Embedded devnet: not built yet; the app starts with no deployment.');
    return async () => {};
  }
  console.log('Starting the embedded devnet (chain, exchange, oracle, liquidity bots)…');
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [cli, '--quiet-bots'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const ready = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith('DEVNET READY ')) {
          try {
            resolve(JSON.parse(line.slice('DEVNET READY '.length)));
          } catch {
            reject(new Error('the devnet printed an unreadable ready line'));
          }
        } else {
          process.stdout.write(`[devnet] ${line}\n`); // progress for the user
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`the devnet exited (code ${code}) before it was ready`)));
    child.on('error', reject);
  });
  child.stdout.resume(); // keep draining its output
  if (ready.devnetFile) process.env.EXCHANGE_TERMINAL_DEVNET_ACCOUNTS = ready.devnetFile;
  console.log(`Embedded devnet ready at ${ready.httpUrl} in ${ready.startupMs} ms.`);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
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
  if (!existsSync(path.join(electronDir, 'package.json'))) {
    console.error('node_modules/electron is missing: run npm install first, then npm start.');
    process.exit(1);
  }
  const electron = electronPackage(electronDir);
  const electronVite = path.join(root, 'node_modules', '.bin', 'electron-vite');
  const code = await launch({
    nodeVersion: process.versions.node,
    electronVersion: electron.version,
    minimumNode: electron.minimumNode,
    findBinary: () => findElectronBinary(electronDir),
    fetchBinary: () => fetchElectronBinary(electron),
    devnet: () => devnetWanted({ env: process.env, settingsText: settingsText(), argv: args }),
    startDevnet,
    // `preview` builds first, then launches Electron on the built app.
    runApp: () => run(electronVite, dev ? ['dev'] : ['preview']),
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
  process.exit(code);
}

main().catch((error) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
