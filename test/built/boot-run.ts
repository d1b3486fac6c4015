/** Runs boot-driver.mjs on a main bundle in a child Node and parses its report. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const DRIVER = resolve('test/built/boot-driver.mjs');

export interface BootOutcome {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

export interface BootReport {
  loaded: boolean;
  errors: string[];
  events: string[];
  sandboxEnabled: boolean;
  privilegedSchemes: unknown;
  privilegedBeforeReady: boolean;
  singleInstanceLockRequested: boolean;
  appListeners: string[];
  appListenersAfterStart: string[];
  protocolHandlers: string[];
  protocolResponses: Record<string, { status: number; csp: string | null; type: string | null; startsWith: string }>;
  windows: { options: { webPreferences: Record<string, unknown> }; loadedUrl: string; devToolsOpened: boolean }[];
  session: {
    permissionRequests: [string, boolean][];
    permissionCheck: boolean | null;
    cspHeader: Record<string, string[]> | null;
  };
  guards: Record<string, unknown>;
  menu: unknown;
  ipcHandleChannels: string[];
  calls: Record<string, BootOutcome>;
  /** The window's webContents input events main listens to (the person's presses reach the core). */
  inputListeners: string[];
  /** Loading the main bundle's WebAssembly crypto chunk and installing its engines. */
  wasmCrypto: { ok: true; ms: number } | { ok: false; error: string } | null;
}

export interface BootRun {
  readonly status: number | null;
  readonly report: BootReport | null;
  readonly stderr: string;
}

/** `cwd` matters for a packed app: bare imports then resolve from the bundle's own node_modules only. */
export type BootMode = 'packaged' | 'dev' | 'core-fails';

export function boot(bundle: string, mode: BootMode = 'packaged', cwd?: string): BootRun {
  const run = spawnSync(process.execPath, [DRIVER, bundle, mode], { encoding: 'utf8', timeout: 90_000, cwd });
  const line = run.stdout.split('\n').find((l) => l.startsWith('BOOT-REPORT '));
  const report = line ? (JSON.parse(line.slice('BOOT-REPORT '.length)) as BootReport) : null;
  return { status: run.status, report, stderr: run.stderr };
}

/** The report of a boot that must succeed; otherwise an error with what went wrong. */
export function mustBoot(bundle: string, mode: BootMode = 'packaged', cwd?: string): BootReport {
  const run = boot(bundle, mode, cwd);
  if (!run.report || run.status !== 0) {
    throw new Error(`the built app did not boot (exit ${run.status}): ${run.report?.errors.join('\n') ?? run.stderr}`);
  }
  return run.report;
}
