// The decisions `npm start` makes before the app opens, with every step injected so they are
// unit-tested (test/launcher/first-run.test.ts): Node new enough for Electron, the Electron
// binary present (or fetched with Electron's own installer), the devnet wanted or not.
// Plain JavaScript: it runs before anything is built, on whatever Node the user has.

/** The lowest Node version a `>= X.Y.Z` (or `>=X.Y`) engines range names; null when it names none. */
export function minimumNode(range) {
  const match = /^\s*>=?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range ?? '');
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)].join('.');
}

/** True when `version` (e.g. process.versions.node) is at least `minimum`. */
export function nodeAtLeast(version, minimum) {
  const a = String(version).replace(/^v/, '').split('.').map(Number);
  const b = String(minimum).split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

export function nodeTooOldSentence(current, minimum, electronVersion) {
  return `Exchange Terminal runs on Electron ${electronVersion}, which needs Node ${minimum} or newer to download and start; this is Node ${current}: install Node ${minimum}+ (22 LTS or 24) and run npm start again (npm test works on Node 20.18+).`;
}

/**
 * One sentence for a failed download, from what Electron's installer printed: why, and what
 * to do (the variables Electron's installation guide documents).
 */
export function fetchFailureSentence({ output, electronVersion, artifact, mirror }) {
  const text = String(output ?? '');
  const where = mirror ? `the mirror ${mirror}` : 'GitHub (the default download host)';
  let why;
  const status = /Response code (\d{3})/.exec(text);
  if (status) why = `${where} answered HTTP ${status[1]} for ${artifact}`;
  else if (
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|UND_ERR/.test(text)
  ) {
    why = `${where} could not be reached (offline, or blocked by a firewall or proxy)`;
  } else if (/checksum|sha256|SHASUMS/i.test(text))
    why = `the download of ${artifact} did not match Electron's published checksum`;
  else if (/ERR_REQUIRE_ESM|require\(\) of ES Module/.test(text)) why = "this Node is too old for Electron's installer";
  else {
    const first = text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0);
    why = first
      ? `Electron's installer said: ${first.slice(0, 160)}`
      : "Electron's installer failed without saying why";
  }
  return `Could not download Electron ${electronVersion}: ${why}; connect to the internet and run npm start again, or set ELECTRON_MIRROR to a mirror you can reach (and ELECTRON_GET_USE_PROXY=1 behind a proxy), or set electron_config_cache to an Electron download cache copied from a machine that has ${artifact}.`;
}

/** `npm start -- --offline` or EXCHANGE_TERMINAL_OFFLINE=1: the app opens no connection (src/main/core/offline-mode.ts). */
export function offlineRequested({ argv, env }) {
  return argv.includes('--offline') || env.EXCHANGE_TERMINAL_OFFLINE === '1';
}

/**
 * Whether `npm start` should start the embedded devnet: not in offline mode (the launch flag, or
 * the saved setting), not when EXCHANGE_TERMINAL_NO_DEVNET=1, and not when the app's saved
 * settings select another deployment. `settingsText` is the app's settings file (null when there
 * is none: a fresh install uses the devnet).
 */
export function devnetWanted({ env, settingsText, argv = [] }) {
  if (offlineRequested({ argv, env })) return { wanted: false, why: 'the app starts in offline mode' };
  if (env.EXCHANGE_TERMINAL_NO_DEVNET === '1') return { wanted: false, why: 'EXCHANGE_TERMINAL_NO_DEVNET=1' };
  if (settingsText === null || settingsText === undefined) return { wanted: true };
  try {
    const settings = JSON.parse(settingsText).settings;
    if (settings?.offlineMode === true) return { wanted: false, why: 'offline mode is on in the settings' };
    const selected = settings?.deployments?.find((d) => d.id === settings.selectedDeploymentId);
    if (!selected || selected.builtIn === 'devnet') return { wanted: true };
    return { wanted: false, why: `the selected deployment is ${JSON.stringify(String(selected.name ?? selected.id))}` };
  } catch {
    return { wanted: true }; // unreadable settings fall back to defaults in the app, and the default is the devnet
  }
}

/**
 * Runs the first-run decisions and the app. Returns the exit code.
 *
 * steps: {
 *   nodeVersion: string, electronVersion: string, minimumNode: string | null,
 *   findBinary(): string | null,
 *   fetchBinary(): Promise<{ ok: true } | { ok: false, sentence: string }>,
 *   devnet(): { wanted: boolean, why?: string },
 *   startDevnet(): Promise<() => Promise<void>>,
 *   runApp(): Promise<number>,
 *   log(line: string): void, error(line: string): void,
 * }
 */
export async function launch(steps) {
  if (steps.minimumNode && !nodeAtLeast(steps.nodeVersion, steps.minimumNode)) {
    steps.error(nodeTooOldSentence(steps.nodeVersion, steps.minimumNode, steps.electronVersion));
    return 1;
  }
  if (!steps.findBinary()) {
    steps.log(
      `Electron ${steps.electronVersion} is not downloaded yet: fetching it with Electron's installer (first run only).`,
    );
    const fetched = await steps.fetchBinary();
    if (!fetched.ok) {
      steps.error(fetched.sentence);
      return 1;
    }
    if (!steps.findBinary()) {
      steps.error(
        `Electron's installer finished but node_modules/electron still has no binary: delete node_modules/electron, run npm install, then npm start again.`,
      );
      return 1;
    }
  }
  const devnet = steps.devnet();
  let stopDevnet = async () => {};
  if (devnet.wanted) stopDevnet = await steps.startDevnet();
  else steps.log(`Not starting the embedded devnet: ${devnet.why}.`);
  try {
    return await steps.runApp();
  } finally {
    await stopDevnet();
  }
}
