import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_DEPLOYMENT, SettingsService } from '../../settings';
import { createMemoryStore } from '../../store/key-value-store';
import { attestedBy, findRunningDevnet, parseDevnetFile, reconcileDevnet } from './devnet-deployment';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const FILE = {
  version: 1,
  pid: 4242,
  httpUrl: 'http://127.0.0.1:9001',
  marketWsUrl: 'ws://127.0.0.1:9001/ws/',
  oracleWsUrl: 'ws://127.0.0.1:9001/oracle-ws/',
  rpcUrl: 'http://127.0.0.1:9002',
  chainId: '31337',
  domain: { name: 'Service Exchange', version: '2', verifyingContract: A(1) },
  contracts: { exchange: A(1), ledger: A(2), depositLedger: A(3), settlementToken: A(4), permit2: A(5) },
  markets: [],
  accounts: [],
};
const REMOTE = {
  id: 'remote',
  name: 'Remote',
  httpUrl: 'https://x.example',
  marketWsUrl: 'wss://x.example/ws/',
  oracleWsUrl: 'wss://x.example/o/',
  rpcUrl: 'https://rpc.example',
  chainId: '8453',
};

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function fileWith(content: string): string {
  dir = mkdtempSync(join(tmpdir(), 'devnet-entry-'));
  const path = join(dir, 'devnet.json');
  writeFileSync(path, content);
  return path;
}

describe('the built-in devnet entry', () => {
  it("reads endpoints and the facts to pin from the launcher's devnet.json", () => {
    const parsed = parseDevnetFile(JSON.stringify(FILE));
    expect(parsed?.deployment).toMatchObject({
      id: 'devnet',
      builtIn: 'devnet',
      httpUrl: FILE.httpUrl,
      rpcUrl: FILE.rpcUrl,
      chainId: '31337',
    });
    expect(parsed?.facts).toEqual({
      chainId: '31337',
      verifyingContract: A(1),
      domainName: 'Service Exchange',
      spenders: { depositLedger: A(3), settlementToken: A(4), permit2: A(5) },
    });
    expect(parseDevnetFile('{')).toBeNull();
    expect(parseDevnetFile(JSON.stringify({ ...FILE, chainId: 31337 }))).toBeNull();
  });

  it('exists only while the devnet process lives and answers', async () => {
    const path = fileWith(JSON.stringify(FILE));
    expect(await findRunningDevnet(null)).toBeNull();
    expect(await findRunningDevnet(join(path, 'missing'))).toBeNull();
    expect(await findRunningDevnet(path, { alive: () => false, answers: () => Promise.resolve(true) })).toBeNull();
    expect(await findRunningDevnet(path, { alive: () => true, answers: () => Promise.resolve(false) })).toBeNull();
    const asked: string[] = [];
    const found = await findRunningDevnet(path, {
      alive: (pid) => pid === 4242,
      answers: (url) => Promise.resolve(asked.push(url) > 0),
    });
    expect(found?.deployment.httpUrl).toBe(FILE.httpUrl);
    expect(asked).toEqual([FILE.httpUrl]);
  });

  it('is added (and selected when nothing else is) while running, removed when not', () => {
    const settings = new SettingsService({ store: createMemoryStore(), defaultDeployments: [] });
    expect(settings.getSettings()).toMatchObject({ deployments: [], selectedDeploymentId: NO_DEPLOYMENT });
    const running = parseDevnetFile(JSON.stringify(FILE))!;
    reconcileDevnet(settings, running);
    expect(settings.getSettings()).toMatchObject({
      deployments: [{ id: 'devnet', httpUrl: FILE.httpUrl }],
      selectedDeploymentId: 'devnet',
    });

    reconcileDevnet(settings, null);
    expect(settings.getSettings()).toMatchObject({ deployments: [], selectedDeploymentId: NO_DEPLOYMENT });

    // A deployment the user added keeps its selection; the devnet comes and goes beside it.
    settings.updateSettings({ deployments: [REMOTE], selectedDeploymentId: 'remote' });
    reconcileDevnet(settings, running);
    expect(settings.getSettings()).toMatchObject({
      deployments: [{ id: 'devnet' }, { id: 'remote' }],
      selectedDeploymentId: 'remote',
    });
    settings.updateSettings({ selectedDeploymentId: 'devnet' });
    reconcileDevnet(settings, null);
    expect(settings.getSettings()).toMatchObject({ deployments: [{ id: 'remote' }], selectedDeploymentId: 'remote' });
  });

  it('attests facts for the built-in devnet only', () => {
    const running = parseDevnetFile(JSON.stringify(FILE))!;
    expect(attestedBy(running)(running.deployment)).toEqual(running.facts);
    expect(attestedBy(running)(REMOTE)).toBeNull();
    expect(attestedBy(null)(running.deployment)).toBeNull();
  });
});
