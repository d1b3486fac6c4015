/** `npm start`'s first-run decisions (scripts/launcher/first-run.mjs), every step injected. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  devnetWanted,
  fetchFailureSentence,
  offlineRequested,
  launch,
  minimumNode,
  nodeAtLeast,
  type FetchResult,
  type LaunchSteps,
} from '../../scripts/launcher/first-run.mjs';

const electronPkg = JSON.parse(readFileSync(resolve('node_modules/electron/package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

/** A launcher run with recorded steps; `binaryAfterFetch` says whether the fetch installs one. */
function harness(options: {
  nodeVersion?: string;
  binary?: boolean;
  fetch?: FetchResult;
  binaryAfterFetch?: boolean;
  devnet?: { wanted: boolean; why?: string };
  appCode?: number;
}) {
  const calls: string[] = [];
  const out: string[] = [];
  const err: string[] = [];
  let binary = options.binary ?? true;
  const steps: LaunchSteps = {
    nodeVersion: options.nodeVersion ?? '22.12.0',
    electronVersion: '45.4.1',
    minimumNode: '22.12.0',
    findBinary: () => {
      calls.push('findBinary');
      return binary ? '/repo/node_modules/electron/dist/electron' : null;
    },
    fetchBinary: () => {
      calls.push('fetchBinary');
      const result = options.fetch ?? { ok: true };
      if (result.ok && options.binaryAfterFetch !== false) binary = true;
      return Promise.resolve(result);
    },
    devnet: () => options.devnet ?? { wanted: true },
    startDevnet: () => {
      calls.push('startDevnet');
      return Promise.resolve(() => {
        calls.push('stopDevnet');
        return Promise.resolve();
      });
    },
    runApp: () => {
      calls.push('runApp');
      return Promise.resolve(options.appCode ?? 0);
    },
    log: (line) => out.push(line),
    error: (line) => err.push(line),
  };
  return { steps, calls, out, err };
}

describe('first run: the Electron binary', () => {
  it('present: starts the devnet and the app, and stops the devnet after', async () => {
    const run = harness({ binary: true });
    expect(await launch(run.steps)).toBe(0);
    expect(run.calls).toEqual(['findBinary', 'startDevnet', 'runApp', 'stopDevnet']);
    expect(run.err).toEqual([]);
  });

  it("missing: fetches it with Electron's installer, says so, then starts", async () => {
    const run = harness({ binary: false, fetch: { ok: true } });
    expect(await launch(run.steps)).toBe(0);
    expect(run.calls).toEqual(['findBinary', 'fetchBinary', 'findBinary', 'startDevnet', 'runApp', 'stopDevnet']);
    expect(run.out[0]).toMatch(/Electron 45\.4\.1 is not downloaded yet: fetching it with Electron's installer/);
  });

  it('fetch failed: one sentence, exit 1, nothing started', async () => {
    const sentence = 'Could not download Electron 45.4.1: offline.';
    const run = harness({ binary: false, fetch: { ok: false, sentence } });
    expect(await launch(run.steps)).toBe(1);
    expect(run.err).toEqual([sentence]);
    expect(run.calls).toEqual(['findBinary', 'fetchBinary']);
  });

  it('fetch "succeeded" but no binary appeared: one sentence, exit 1', async () => {
    const run = harness({ binary: false, fetch: { ok: true }, binaryAfterFetch: false });
    expect(await launch(run.steps)).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/still has no binary/);
    expect(run.calls).not.toContain('runApp');
  });

  it("passes the app's exit code through and stops the devnet even when the app fails", async () => {
    const run = harness({ appCode: 3 });
    expect(await launch(run.steps)).toBe(3);
    expect(run.calls.at(-1)).toBe('stopDevnet');
  });
});

describe('first run: Node', () => {
  it("reads the requirement from Electron's own package.json", () => {
    expect(minimumNode(electronPkg.engines.node)).toMatch(/^\d+\.\d+\.\d+$/);
    expect(minimumNode('>= 22.12.0')).toBe('22.12.0');
    expect(minimumNode('>=20.18')).toBe('20.18.0');
    expect(minimumNode('^22 || ^24')).toBeNull();
  });

  it('compares versions numerically', () => {
    expect(nodeAtLeast('20.20.2', '22.12.0')).toBe(false);
    expect(nodeAtLeast('22.11.9', '22.12.0')).toBe(false);
    expect(nodeAtLeast('22.12.0', '22.12.0')).toBe(true);
    expect(nodeAtLeast('v24.1.0', '22.12.0')).toBe(true);
    expect(nodeAtLeast('22.100.0', '22.12.0')).toBe(true);
  });

  it('too old: refused up front in one sentence naming the version needed; nothing fetched or started', async () => {
    const run = harness({ nodeVersion: '20.20.2', binary: false });
    expect(await launch(run.steps)).toBe(1);
    expect(run.calls).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toContain('Node 22.12.0 or newer');
    expect(run.err[0]).toContain('this is Node 20.20.2');
    expect(run.err[0]?.split(/(?<=\.) (?=[A-Z])/)).toHaveLength(1);
  });
});

describe('first run: the devnet', () => {
  it('not wanted: the app starts without it and the launcher says why', async () => {
    const run = harness({ devnet: { wanted: false, why: 'EXCHANGE_TERMINAL_NO_DEVNET=1' } });
    expect(await launch(run.steps)).toBe(0);
    expect(run.calls).toEqual(['findBinary', 'runApp']);
    expect(run.out).toContain('Not starting the embedded devnet: EXCHANGE_TERMINAL_NO_DEVNET=1.');
  });

  it('is wanted on a fresh install and when the devnet is selected, not otherwise', () => {
    const settings = (selected: string) =>
      JSON.stringify({
        settings: {
          selectedDeploymentId: selected,
          deployments: [
            { id: 'devnet', name: 'Devnet', builtIn: 'devnet' },
            { id: 'prod', name: 'Production' },
          ],
        },
      });
    expect(devnetWanted({ env: {}, settingsText: null }).wanted).toBe(true);
    expect(devnetWanted({ env: {}, settingsText: settings('devnet') }).wanted).toBe(true);
    expect(devnetWanted({ env: {}, settingsText: settings('prod') })).toEqual({
      wanted: false,
      why: 'the selected deployment is "Production"',
    });
    expect(devnetWanted({ env: {}, settingsText: '{not json' }).wanted).toBe(true);
    expect(devnetWanted({ env: { EXCHANGE_TERMINAL_NO_DEVNET: '1' }, settingsText: null }).wanted).toBe(false);
  });

  it('does not start the devnet in offline mode: launch flag, environment or saved setting', () => {
    const offline = { wanted: false, why: 'the app starts in offline mode' };
    expect(devnetWanted({ env: {}, settingsText: null, argv: ['--offline'] })).toEqual(offline);
    expect(devnetWanted({ env: { EXCHANGE_TERMINAL_OFFLINE: '1' }, settingsText: null })).toEqual(offline);
    const saved = JSON.stringify({
      settings: {
        selectedDeploymentId: 'devnet',
        deployments: [{ id: 'devnet', name: 'Devnet', builtIn: 'devnet' }],
        offlineMode: true,
      },
    });
    expect(devnetWanted({ env: {}, settingsText: saved })).toEqual({
      wanted: false,
      why: 'offline mode is on in the settings',
    });
    expect(offlineRequested({ argv: ['--dev'], env: { EXCHANGE_TERMINAL_OFFLINE: '0' } })).toBe(false);
  });
});

describe("first run: a failed download's sentence", () => {
  const base = { electronVersion: '45.4.1', artifact: 'electron-v45.4.1-linux-x64.zip' };
  // What node_modules/electron/install.js prints (err.stack) when the host cannot be reached.
  const offline =
    'TypeError: fetch failed\n    at node:internal/deps/undici/undici:13510:13\n    at async FetchDownloader.download';

  it('offline: says the host could not be reached and names the variables to set', () => {
    const sentence = fetchFailureSentence({ ...base, output: offline });
    expect(sentence).toContain('GitHub (the default download host) could not be reached');
    expect(sentence).toContain('ELECTRON_MIRROR');
    expect(sentence).toContain('electron_config_cache');
    expect(sentence).not.toContain('\n');
    expect(sentence.match(/\. /g)).toBeNull(); // one sentence
  });

  it('a blocked or wrong mirror: names the mirror and its HTTP status', () => {
    const sentence = fetchFailureSentence({
      ...base,
      mirror: 'https://mirror.example/electron/',
      output:
        'HTTPError: Response code 403 (Forbidden) for https://mirror.example/electron/v45.4.1/electron-v45.4.1-linux-x64.zip',
    });
    expect(sentence).toContain(
      'the mirror https://mirror.example/electron/ answered HTTP 403 for electron-v45.4.1-linux-x64.zip',
    );
  });

  it('a checksum mismatch and an unknown failure are told apart', () => {
    expect(
      fetchFailureSentence({
        ...base,
        output: 'Error: Generated checksum for "x.zip" did not match expected checksum.',
      }),
    ).toContain("did not match Electron's published checksum");
    expect(fetchFailureSentence({ ...base, output: '\n  Error: EACCES: permission denied, mkdir dist\n' })).toContain(
      "Electron's installer said: Error: EACCES: permission denied, mkdir dist",
    );
  });
});
