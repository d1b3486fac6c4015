// The Electron binary for `npm start`: where it is, and fetching it with Electron's own
// installer (node_modules/electron/install.js, the `install-electron` command) when it is
// missing. Electron 45 has no npm install script: it downloads on first use.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchFailureSentence, minimumNode } from './first-run.mjs';

/** Version, Node requirement and artifact name, read from node_modules/electron/package.json. */
export function electronPackage(electronDir) {
  const pkg = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
  const platform = process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform;
  const arch = process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || process.arch;
  return {
    version: pkg.version,
    minimumNode: minimumNode(pkg.engines?.node),
    installer: path.join(
      electronDir,
      typeof pkg.bin === 'object' && pkg.bin['install-electron'] ? pkg.bin['install-electron'] : 'install.js',
    ),
    artifact: `electron-v${pkg.version}-${platform}-${arch}.zip`,
  };
}

/**
 * The binary's path, without loading the `electron` package (requiring it downloads a missing
 * binary synchronously, with no way to report why it failed).
 */
export function findElectronBinary(electronDir, env = process.env) {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const full = env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    : path.join(electronDir, 'dist', relative);
  return existsSync(full) ? full : null;
}

function bytesIn(dir) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? bytesIn(full) : statSync(full).size;
    } catch {
      // a temporary file renamed or removed between listing and stat
    }
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/**
 * Runs Electron's installer in a child process. Its download lands in a temporary folder of
 * our own (TMPDIR for the child), whose size is the progress shown; its own progress bar
 * (which appears only after 30 s) is turned off so there is one progress line.
 */
export function fetchElectronBinary(
  { installer, version, artifact },
  { out = process.stdout, env = process.env } = {},
) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'exchange-terminal-electron-'));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [installer], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, ELECTRON_GET_NO_PROGRESS: '1', TMPDIR: scratch, TMP: scratch, TEMP: scratch },
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    let shown = 0;
    const tick = setInterval(() => {
      const bytes = bytesIn(scratch);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (out.isTTY) out.write(`\rDownloading ${artifact}: ${mb(bytes)} after ${seconds} s   `);
      else if (bytes - shown >= 10_000_000) {
        shown = bytes;
        out.write(`Downloading ${artifact}: ${mb(bytes)} after ${seconds} s\n`);
      }
    }, 500);
    const finish = (result) => {
      clearInterval(tick);
      if (out.isTTY) out.write('\n');
      rmSync(scratch, { recursive: true, force: true });
      resolve(result);
    };
    child.on('error', (error) =>
      finish({
        ok: false,
        sentence: fetchFailureSentence({
          output: error.message,
          electronVersion: version,
          artifact,
          mirror: env.ELECTRON_MIRROR,
        }),
      }),
    );
    child.on('exit', (code) => {
      if (code === 0) {
        out.write(`Electron ${version} is installed (${Math.round((Date.now() - started) / 1000)} s).\n`);
        finish({ ok: true });
      } else {
        finish({
          ok: false,
          sentence: fetchFailureSentence({ output, electronVersion: version, artifact, mirror: env.ELECTRON_MIRROR }),
        });
      }
    });
  });
}
