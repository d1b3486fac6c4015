import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfStore } from '../store/conf-store';
import { createMemoryStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { MIGRATIONS, migrateSettings } from './migrations';
import {
  DEFAULT_HOTKEYS,
  DEVNET_DEPLOYMENT,
  SETTINGS_LIMITS,
  SettingsSchema,
  defaultSettings,
  type Settings,
} from './schema';
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

  it('shares frozen settings that nothing can change in place, and replaces them whole on a change', () => {
    const service = new SettingsService({ store: createMemoryStore() });
    const s = service.getSettings() as Settings;
    expect(service.getSettings()).toBe(s); // no copy per read
    expect(() => {
      s.theme = 'light';
    }).toThrow(TypeError);
    expect(() => {
      s.hotkeys.bindings.joinBid = 'X';
    }).toThrow(TypeError);
    expect(() => s.deployments.push(CUSTOM)).toThrow(TypeError);
    expect(service.getSettings().hotkeys.bindings.joinBid).toBe('B');
    const next = service.updateSettings({ theme: 'light' });
    expect(service.getSettings()).toBe(next);
    expect(Object.isFrozen(next.layout.panelSizes)).toBe(true);
    expect(s.theme).toBe('dark'); // what a caller held before the change stays as it was
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

  it('loads risk limits saved before the fixed daily loss amount existed: the percentage applies', () => {
    const { dailyLossAmount: _absent, ...older } = defaultSettings().riskLimits;
    const stored = { ...defaultSettings(), riskLimits: { ...older, dailyLossPercent: 2.5 } };
    const service = new SettingsService({ store: createMemoryStore({ settings: stored }) });
    expect(service.loadIssue).toBeNull();
    expect(service.getSettings().riskLimits).toEqual({ ...older, dailyLossPercent: 2.5, dailyLossAmount: '' });
    // A stored amount is kept; one that is not an amount is not a limit.
    const fixed = { ...stored, riskLimits: { ...stored.riskLimits, dailyLossAmount: '250' } };
    expect(SettingsSchema.parse(fixed).riskLimits.dailyLossAmount).toBe('250');
    for (const bad of ['0', '-5', '$250', '1.005', ' 250'])
      expect(SettingsSchema.safeParse({ ...stored, riskLimits: { ...older, dailyLossAmount: bad } }).success).toBe(
        false,
      );
  });
});

describe('size bounds', () => {
  const panels = (n: number, prefix = 'p'): Record<string, number> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 100]));

  it('refuses more panel sizes, or longer panel names, than the layout keeps, in words without a path', () => {
    const store = createMemoryStore();
    const service = new SettingsService({ store });
    const before = JSON.stringify(store.get('settings'));
    service.updateSettings({ layout: { panelSizes: panels(SETTINGS_LIMITS.panelSizes), selectedMarket: null } });
    const saved = JSON.stringify(store.get('settings'));
    for (const panelSizes of [panels(SETTINGS_LIMITS.panelSizes + 1), { ['x'.repeat(65)]: 100 }]) {
      const err = refused(() => service.updateSettings({ layout: { panelSizes, selectedMarket: null } }));
      expect(err.code).toBe('INVALID_SETTINGS');
      expect(err.message).toBe(
        'Setting not saved: the layout keeps the sizes of at most 64 panels, each named in at most 64 characters.',
      );
    }
    expect(JSON.stringify(store.get('settings'))).toBe(saved);
    expect(saved).not.toBe(before);
  });

  it('refuses a change larger than any setting before merging it: a million panels, a 50 MB string, deep nesting', () => {
    const store = createMemoryStore();
    const service = new SettingsService({ store });
    const before = JSON.stringify(store.get('settings'));
    let calls = 0;
    service.onChange(() => calls++);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) deep = { deep };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ layout: { panelSizes: panels(1_000_000) } }, /more than 1,000 values/],
      [{ layout: { selectedMarket: 'x'.repeat(50 * 1024 * 1024) } }, /more than 65,536 characters/],
      [{ layout: deep }, /nested more than 8 levels deep/],
    ];
    for (const [patch, words] of cases) {
      const err = refused(() => service.updateSettings(patch));
      expect(err.code).toBe('SETTINGS_TOO_LARGE');
      expect(err.message).toMatch(
        /^Setting not saved: the change is far larger than any setting \(.+\)\. Nothing was changed\.$/,
      );
      expect(err.message).toMatch(words);
    }
    expect(JSON.stringify(store.get('settings'))).toBe(before);
    expect(calls).toBe(0);
  });

  it('starts from a file an older version saved with 200,000 panel sizes: keeps the first 64, says so, saves it small', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'settings-'));
    try {
      const old = createConfStore({ cwd });
      const bloated = {
        ...defaultSettings([DEVNET_DEPLOYMENT, CUSTOM]),
        theme: 'light',
        layout: { panelSizes: { markets: 280, tables: 240, ...panels(200_000, 'attack-') }, selectedMarket: '7' },
      };
      old.set('settings', bloated);
      const service = new SettingsService({ store: createConfStore({ cwd }) });
      expect(service.loadIssue?.code).toBe('SETTINGS_TOO_LARGE');
      expect(service.loadIssue?.message).toBe(
        'The saved layout named 200,002 panel sizes; the app keeps at most 64, so 64 were kept and the rest dropped.',
      );
      const s = service.getSettings();
      expect(Object.keys(s.layout.panelSizes)).toHaveLength(SETTINGS_LIMITS.panelSizes);
      expect(s.layout.panelSizes).toMatchObject({ markets: 280, tables: 240 });
      expect(s).toMatchObject({ theme: 'light', selectedDeploymentId: 'devnet', layout: { selectedMarket: '7' } });
      expect(s.deployments.map((d) => d.id)).toEqual(['devnet', 'staging']);
      // Saved trimmed: the next start reads a small file and has nothing to say.
      const again = new SettingsService({ store: createConfStore({ cwd }) });
      expect(again.loadIssue).toBeNull();
      expect(again.getSettings()).toEqual(s);
      expect(JSON.stringify(createConfStore({ cwd }).get('settings')).length).toBeLessThan(10_000);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('does not keep stored settings larger than any this app writes, and says so', () => {
    const huge = { ...defaultSettings(), deployments: [{ ...CUSTOM, name: 'x'.repeat(3 * 1024 * 1024) }] };
    const store = createMemoryStore({ settings: huge });
    const service = new SettingsService({ store });
    expect(service.loadIssue?.code).toBe('SETTINGS_TOO_LARGE');
    expect(service.loadIssue?.message).toMatch(
      /^The stored settings were far larger than any this app writes \(more than 2,097,152 characters\)/,
    );
    expect(service.getSettings()).toEqual(defaultSettings());
    expect(store.get('settings.unreadable')).toBeUndefined();
    expect(store.get('settings')).toEqual(defaultSettings());
  });

  it('bounds every record of the schema: pins, pending pin changes, panel sizes', () => {
    const fact = {
      chainId: '1',
      verifyingContract: `0x${'1'.repeat(40)}`,
      domainName: 'Exchange',
    };
    const many = <V>(n: number, v: V): Record<string, V> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, v]));
    const base = defaultSettings();
    expect(
      SettingsSchema.safeParse({ ...base, pins: many(SETTINGS_LIMITS.pins, { ...fact, pinnedAt: 'now' }) }).success,
    ).toBe(true);
    for (const bad of [
      { ...base, pins: many(SETTINGS_LIMITS.pins + 1, { ...fact, pinnedAt: 'now' }) },
      { ...base, pendingPinChanges: many(SETTINGS_LIMITS.pins + 1, fact) },
      { ...base, pins: { ['d'.repeat(65)]: { ...fact, pinnedAt: 'now' } } },
      { ...base, layout: { panelSizes: many(SETTINGS_LIMITS.panelSizes + 1, 1), selectedMarket: null } },
      { ...base, selectedDeploymentId: 'd'.repeat(65) },
      { ...base, deployments: [{ ...CUSTOM, httpUrl: `https://x.test/${'a'.repeat(1000)}` }] },
    ]) {
      expect(SettingsSchema.safeParse(bad).success).toBe(false);
    }
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
