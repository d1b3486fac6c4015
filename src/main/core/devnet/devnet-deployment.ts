/**
 * The built-in devnet entry, present only while a devnet is actually running (as under `npm start`,
 * which passes the path of its devnet.json in EXCHANGE_TERMINAL_DEVNET_ACCOUNTS). The file is written
 * by the app's own launcher on this machine (mode 0600): its endpoints become the devnet deployment
 * and its chain id, domain and contracts are the facts the devnet is pinned with, without a dialog.
 * No file, a dead pid or a devnet that does not answer: no devnet entry, and the app opens on
 * "Connect to an exchange" (or on the deployment the user added).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  devnetDeploymentAt,
  NO_DEPLOYMENT,
  type Deployment,
  type DomainFacts,
  type SettingsService,
} from '../../settings';
import { parseDevnetJson } from './devnet-file';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const devnetFileSchema = z.object({
  pid: z.number().int().positive(),
  httpUrl: z.string().url(),
  marketWsUrl: z.string().url(),
  oracleWsUrl: z.string().url(),
  rpcUrl: z.string().url(),
  chainId: z.string().regex(/^[1-9][0-9]{0,77}$/),
  domain: z.object({ name: z.string().min(1).max(200), verifyingContract: address }),
  contracts: z.object({ exchange: address, depositLedger: address, settlementToken: address, permit2: address }),
});

export interface RunningDevnet {
  readonly deployment: Deployment;
  /** What the launcher wrote down: the devnet is pinned with exactly these. */
  readonly facts: DomainFacts;
}

/** Parses devnet.json; null when it is missing or not what the devnet writes. */
export function parseDevnetFile(text: string): (RunningDevnet & { pid: number }) | null {
  const f = parseDevnetJson(text, devnetFileSchema);
  if (!f) return null;
  return {
    pid: f.pid,
    deployment: devnetDeploymentAt(f),
    facts: {
      chainId: f.chainId,
      verifyingContract: f.domain.verifyingContract,
      domainName: f.domain.name,
      spenders: {
        depositLedger: f.contracts.depositLedger,
        settlementToken: f.contracts.settlementToken,
        permit2: f.contracts.permit2,
      },
    },
  };
}

export interface FindDevnetOptions {
  /** Whether a process id is alive (default: signal 0). */
  alive?: (pid: number) => boolean;
  /** Whether the devnet's exchange answers (default: GET health within 2 s). */
  answers?: (httpUrl: string) => Promise<boolean>;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function healthAnswers(httpUrl: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('health', httpUrl.endsWith('/') ? httpUrl : `${httpUrl}/`), {
      signal: AbortSignal.timeout(2_000),
      redirect: 'error',
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The running devnet named by the launcher's file, or null when there is none that answers. */
export async function findRunningDevnet(
  path: string | null,
  options: FindDevnetOptions = {},
): Promise<RunningDevnet | null> {
  if (!path) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const found = parseDevnetFile(text);
  if (!found || !(options.alive ?? pidAlive)(found.pid)) return null;
  if (!(await (options.answers ?? healthAnswers)(found.deployment.httpUrl))) return null;
  return { deployment: found.deployment, facts: found.facts };
}

/**
 * Puts the built-in devnet entry in the settings when a devnet runs (at its real endpoints, selected
 * when nothing else is), and takes it out when none does (selecting the next deployment, or none).
 * Main does this at start; the window cannot.
 */
export function reconcileDevnet(settings: SettingsService, devnet: RunningDevnet | null): void {
  const current = settings.getSettings();
  const others = current.deployments.filter((d) => d.builtIn !== 'devnet');
  if (devnet) {
    const existing = current.deployments.find((d) => d.builtIn === 'devnet');
    const entry: Deployment = { ...devnet.deployment, ...(existing ? { name: existing.name } : {}) };
    const deployments = [entry, ...others];
    const selected = deployments.some((d) => d.id === current.selectedDeploymentId)
      ? current.selectedDeploymentId
      : entry.id;
    settings.updateSettings({ deployments, selectedDeploymentId: selected });
    return;
  }
  if (others.length === current.deployments.length) return;
  const selected = others.some((d) => d.id === current.selectedDeploymentId)
    ? current.selectedDeploymentId
    : (others[0]?.id ?? NO_DEPLOYMENT);
  settings.updateSettings({ deployments: others, selectedDeploymentId: selected });
}

/**
 * What main does at start: find the running devnet and reconcile the settings with it. In offline
 * mode neither happens: the probe would open a connection, and the saved devnet entry with its pin
 * stays as it was, so offline signing keeps its pinned domain.
 */
export async function devnetAtStart(
  settings: SettingsService,
  path: string | null,
  offline: boolean,
  options: FindDevnetOptions = {},
): Promise<RunningDevnet | null> {
  if (offline) return null;
  const running = await findRunningDevnet(path, options);
  reconcileDevnet(settings, running);
  return running;
}

/** For the trading host: the attested facts of the built-in devnet, null for any other deployment. */
export function attestedBy(devnet: RunningDevnet | null): (deployment: Deployment) => DomainFacts | null {
  return (deployment) => (devnet && deployment.builtIn === 'devnet' ? devnet.facts : null);
}
