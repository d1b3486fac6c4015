import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfStore } from '../store/conf-store';
import { createMemoryStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { MIGRATIONS, migrateSettings } from './migrations';
import { DEFAULT_HOTKEYS, DEVNET_DEPLOYMENT, SettingsSchema, defaultSettings } from './schema';
import { SettingsService } from './settings-service';

const CUSTOM = {
  id: 'staging',
  name: 'Staging',
  httpUrl: 'https://api.example.test',
  marketWsUrl: 'wss://api.example.test/market',
  oracleWsUrl: 'wss://api.example.test/oracle',
  rpcUrl: 'https://rpc.example.test',
  chainId: '8453',
};

function refused(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return e as SettingsError;
  }
  throw new Error('expected a SettingsError');
}

describe('settings defaults', () => {
  it('are valid v1 with hotkeys off, withdrawals confirmed and every hotkey action bound', () => {
    const s = defaultSettings();
    expect(SettingsSchema.parse(s)).toEqual(s);
    expect(s).toMatchObject({ version: 1, selectedDeploymentId: 'devnet', hotkeys: { enabled: false } });
    expect(s.confirmations.withdrawals).toBe(true);
    expect(Object.keys(s.hotkeys.bindings).sort()).toEqual(Object.keys(DEFAULT_HOTKEYS).sort());
    expect(new Set(Object.values(s.hotkeys.bindings)).size).toBe(Object.keys(DEFAULT_HOTKEYS).length);
  });
});

describe('SettingsService', () => {
  it('persists through a conf store and notifies listeners', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'settings-'));
    try {
      const service = new SettingsService({ store: createConfStore({ cwd }) });
      const seen: Array<[string, string]> = [];
      const off = service.onChange((next, prev) => seen.push([prev.theme, next.theme]));
      service.updateSettings({
        theme: 'light',
        deployments: [DEVNET_DEPLOYMENT, CUSTOM],
        selectedDeploymentId: 'staging',
      });
      service.updateSettings({ hotkeys: { enabled: true, bindings: { joinBid: 'Ctrl+B' } } });
      off();
      service.updateSettings({ notifications: { fills: false } });
      expect(seen).toEqual([
        ['dark', 'light'],
        ['light', 'light'],
      ]);

      const reloadedService = new SettingsService({ store: createConfStore({ cwd }) });
      expect(reloadedService.loadIssue).toBeNull();
      const reloaded = reloadedService.getSettings();
      expect(reloaded.theme).toBe('light');
      expect(reloaded.selectedDeploymentId).toBe('staging');
      expect(reloaded.hotkeys.enabled).toBe(true);
      expect(reloaded.hotkeys.bindings.joinBid).toBe('Ctrl+B');
      expect(reloaded.hotkeys.bindings.joinAsk).toBe('S'); // merged, not replaced
      expect(reloaded.notifications).toEqual({ fills: false, resolutions: true });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('refuses a bad patch with its path and a sentence, and changes nothing', () => {
    const store = createMemoryStore();
    const service = new SettingsService({ store });
    const before = JSON.stringify(store.get('settings'));
    let calls = 0;
    service.onChange(() => calls++);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ confirmations: { withdrawals: false } }, 'confirmations.withdrawals'],
      [{ theme: 'blue' }, 'theme'],
      [{ autoLockMinutes: -1 }, 'autoLockMinutes'],
      [{ defaultSizes: ['1', '2', 'x', '4'] }, 'defaultSizes.2'],
      [{ defaultSizes: ['1', '2', '0.0', '4'] }, 'defaultSizes.2'],
      [{ selectedDeploymentId: 'nope' }, 'selectedDeploymentId'],
      // No deployment is allowed (first run), but not while one is still selected.
      [{ deployments: [] }, 'selectedDeploymentId'],
      [{ deployments: [{ ...CUSTOM, httpUrl: 'ftp://x' }] }, 'deployments.0.httpUrl'],
      [{ deployments: [{ ...CUSTOM, chainId: '0x2105' }] }, 'deployments.0.chainId'],
      [{ deployments: [DEVNET_DEPLOYMENT, { ...DEVNET_DEPLOYMENT, name: 'again' }] }, 'deployments.1.id'],
      [{ hotkeys: { bindings: { joinBid: 'Shift+B' } } }, 'hotkeys.bindings.joinBid'],
      [{ hotkeys: { bindings: { joinBid: 'Hyper+Q' } } }, 'hotkeys.bindings.joinBid'],
      [{ hotkeys: { bindings: { teleport: 'T' } } }, 'hotkeys.bindings'],
      [{ pins: {} }, 'pins'],
      [{ version: 2 }, 'version'],
      [{ colour: 'red' }, ''],
    ];
    for (const [patch, path] of cases) {
      const err = refused(() => service.updateSettings(patch));
      expect(err.code).toBe('INVALID_SETTINGS');
      expect(err.path, JSON.stringify(patch)).toBe(path);
      expect(err.message).toMatch(/^Setting not saved: .+\.$/);
    }
    const dup = refused(() => service.updateSettings({ hotkeys: { bindings: { joinBid: 'Shift+B' } } }));
    expect(dup.message).toContain('already bound to buyAtBest');
    expect(JSON.stringify(store.get('settings'))).toBe(before);
    expect(calls).toBe(0);
    expect(service.getSettings()).toEqual(defaultSettings());
  });

  it('returns copies that cannot change the stored settings', () => {
    const service = new SettingsService({ store: createMemoryStore() });
    const s = service.getSettings();
    s.theme = 'light';
    s.hotkeys.bindings.joinBid = 'X';
    expect(service.getSettings().theme).toBe('dark');
    expect(service.getSettings().hotkeys.bindings.joinBid).toBe('B');
  });

  it('sets unreadable stored settings aside and starts from defaults', () => {
    const store = createMemoryStore({ settings: { version: 1, theme: 'neon' } });
    const service = new SettingsService({ store });
    expect(service.loadIssue?.code).toBe('INVALID_SETTINGS');
    expect(service.getSettings()).toEqual(defaultSettings());
    expect(store.get('settings.unreadable')).toEqual({ version: 1, theme: 'neon' });
    const newer = new SettingsService({ store: createMemoryStore({ settings: { version: 99 } }) });
    expect(newer.loadIssue?.message).toMatch(/newer version/);
  });
});

describe('migrations', () => {
  const v0 = {
    deployment: {
      name: 'My exchange',
      httpUrl: 'https://x.test',
      wsUrl: 'wss://x.test/ws',
      rpcUrl: 'https://rpc.x.test',
      chainId: 8453,
    },
    hotkeysEnabled: true,
    theme: 'light',
    sizes: [2, 4, 8, 16],
  };

  it('migrates a v0-shaped object to a valid v1 on load and saves it', () => {
    const store = createMemoryStore({ settings: v0 });
    const s = new SettingsService({ store }).getSettings();
    expect(s.version).toBe(1);
    expect(s.deployments.map((d) => d.id)).toEqual(['devnet', 'custom']);
    expect(s.deployments[1]).toEqual({
      id: 'custom',
      name: 'My exchange',
      httpUrl: 'https://x.test',
      marketWsUrl: 'wss://x.test/ws',
      oracleWsUrl: 'wss://x.test/ws',
      rpcUrl: 'https://rpc.x.test',
      chainId: '8453',
    });
    expect(s.selectedDeploymentId).toBe('custom');
    expect(s.hotkeys.enabled).toBe(true);
    expect(s.theme).toBe('light');
    expect(s.defaultSizes).toEqual(['2', '4', '8', '16']);
    expect((store.get('settings') as { version: number }).version).toBe(1);
  });

  it('drops v0 fields that do not fit instead of failing', () => {
    const s = SettingsSchema.parse(migrateSettings({ deployment: 'garbage', theme: 7, sizes: [1] }));
    expect(s).toEqual(defaultSettings());
  });

  it('runs chained steps in order and refuses gaps', () => {
    const steps = { ...MIGRATIONS, 1: (raw: Record<string, unknown>) => ({ ...raw, extra: true }) };
    expect(migrateSettings(v0, steps, 2)).toMatchObject({ version: 2, extra: true, theme: 'light' });
    expect(() => migrateSettings({ version: 1 }, { 0: MIGRATIONS[0]! }, 2)).toThrow(/No migration from settings v1/);
    expect(() => migrateSettings([], MIGRATIONS)).toThrow(SettingsError);
    expect(() => migrateSettings({ version: 'one' })).toThrow(/unreadable version/);
  });
});
