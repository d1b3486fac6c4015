import { z } from 'zod';
import { SettingsError } from './errors';
import { DEVNET_DEPLOYMENT, SETTINGS_VERSION, defaultSettings, type Deployment } from './schema';

type Raw = Record<string, unknown>;
/** Turns a stored object of version `from` into one of version `from + 1`. */
type Migration = (raw: Raw) => Raw;

/**
 * v0: the pre-release shape, without a version field: one deployment with a single WebSocket URL and a
 * numeric chain id, a hotkeysEnabled flag and numeric default sizes. Parsed loosely: whatever does not
 * fit is dropped in favour of the v1 default.
 */
const V0Schema = z.object({
  deployment: z
    .object({
      name: z.string().optional(),
      httpUrl: z.string(),
      wsUrl: z.string(),
      rpcUrl: z.string(),
      chainId: z.union([z.number().int().positive(), z.string()]),
    })
    .optional()
    .catch(undefined),
  hotkeysEnabled: z.boolean().optional().catch(undefined),
  theme: z.enum(['dark', 'light']).optional().catch(undefined),
  sizes: z.array(z.number().positive()).length(4).optional().catch(undefined),
});

const fromV0: Migration = (raw) => {
  const v0 = V0Schema.parse(raw);
  const base = defaultSettings();
  const deployments: Deployment[] = [DEVNET_DEPLOYMENT];
  let selected = DEVNET_DEPLOYMENT.id;
  if (v0.deployment) {
    const d = v0.deployment;
    deployments.push({
      id: 'custom',
      name: d.name?.trim() || 'Custom deployment',
      httpUrl: d.httpUrl,
      // v0 had one socket carrying both feeds.
      marketWsUrl: d.wsUrl,
      oracleWsUrl: d.wsUrl,
      rpcUrl: d.rpcUrl,
      chainId: String(d.chainId),
    });
    selected = 'custom';
  }
  return {
    ...base,
    deployments,
    selectedDeploymentId: selected,
    hotkeys: { ...base.hotkeys, enabled: v0.hotkeysEnabled ?? false },
    theme: v0.theme ?? base.theme,
    // Numbers print as plain decimals for the small sizes v0 allowed.
    defaultSizes: v0.sizes ? v0.sizes.map((n) => String(n)) : base.defaultSizes,
    version: 1,
  };
};

/** Keyed by the version migrated from. Add `1: fromV1` together with SETTINGS_VERSION = 2. */
export const MIGRATIONS: Readonly<Record<number, Migration>> = { 0: fromV0 };

/** Brings a stored object up to SETTINGS_VERSION (it is validated afterwards by the caller). */
export function migrateSettings(
  raw: unknown,
  migrations: Readonly<Record<number, Migration>> = MIGRATIONS,
  target = SETTINGS_VERSION,
): Raw {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SettingsError('INVALID_SETTINGS', 'The stored settings are not an object.');
  }
  let current = raw as Raw;
  let version = current['version'] === undefined ? 0 : current['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new SettingsError('INVALID_SETTINGS', 'The stored settings have an unreadable version.', 'version');
  }
  if (version > target) {
    throw new SettingsError(
      'INVALID_SETTINGS',
      `The stored settings were written by a newer version of the app (settings v${version}).`,
      'version',
    );
  }
  while (version < target) {
    const step = migrations[version];
    if (!step) throw new SettingsError('INVALID_SETTINGS', `No migration from settings v${version}.`, 'version');
    current = step(current);
    version += 1;
    current = { ...current, version };
  }
  return current;
}
