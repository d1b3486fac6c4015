import type { z } from 'zod';
import type { KeyValueStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { migrateSettings } from './migrations';
import { SettingsSchema, defaultSettings, type Deployment, type Settings } from './schema';

const STORE_KEY = 'settings';

/** Fields the window may change through updateSettings. Pins belong to pinning.ts; the version to migrations. */
export type SettingsPatch = Partial<
  Omit<Settings, 'version' | 'pins' | 'pendingPinChanges' | 'hotkeys' | 'confirmations' | 'notifications' | 'layout'>
> & {
  hotkeys?: { enabled?: boolean; bindings?: Partial<Settings['hotkeys']['bindings']> };
  confirmations?: Partial<Settings['confirmations']>;
  notifications?: Partial<Settings['notifications']>;
  layout?: Partial<Settings['layout']>;
};

const PROTECTED_KEYS = new Set(['version', 'pins', 'pendingPinChanges']);
const NESTED_KEYS = new Set(['confirmations', 'notifications', 'layout']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Converts the first zod issue into a SettingsError carrying its path and a sentence. */
export function toSettingsError(error: z.ZodError): SettingsError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const message = issue
    ? `${path || 'settings'} ${issue.message.replace(/^[A-Z]/, (c) => c.toLowerCase())}.`
    : 'The settings are invalid.';
  return new SettingsError('INVALID_SETTINGS', `Setting not saved: ${message.replace(/\.\.$/, '.')}`, path);
}

/** Merges a patch into settings: top level replaces, hotkeys/confirmations/notifications/layout merge. */
function merge(current: Settings, patch: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (PROTECTED_KEYS.has(key)) {
      throw new SettingsError('INVALID_SETTINGS', `Setting not saved: ${key} cannot be changed here.`, key);
    }
    const base = next[key];
    if (key === 'hotkeys' && isPlainObject(value) && isPlainObject(base)) {
      const bindings = value['bindings'];
      next[key] = {
        ...base,
        ...value,
        bindings:
          isPlainObject(bindings) && isPlainObject(base['bindings'])
            ? { ...base['bindings'], ...bindings }
            : (bindings ?? base['bindings']),
      };
    } else if (NESTED_KEYS.has(key) && isPlainObject(value) && isPlainObject(base)) {
      next[key] = { ...base, ...value };
    } else {
      next[key] = value;
    }
  }
  return next;
}

export interface SettingsServiceOptions {
  store: KeyValueStore;
  /** Deployments for fresh settings (defaults to the devnet). */
  defaultDeployments?: Deployment[];
}

export type SettingsListener = (settings: Settings, previous: Settings) => void;

/**
 * Validated, versioned settings behind the KeyValueStore. Stored data is migrated on load; data that
 * cannot be read is kept aside under "settings.unreadable" and defaults are used, so a bad file never
 * stops the app and is never silently destroyed.
 */
export class SettingsService {
  readonly #store: KeyValueStore;
  readonly #listeners = new Set<SettingsListener>();
  #current: Settings;
  /** Why stored settings were set aside at load, if they were. */
  readonly loadIssue: SettingsError | null;

  constructor(options: SettingsServiceOptions) {
    this.#store = options.store;
    const raw = this.#store.get(STORE_KEY);
    const defaults = defaultSettings(options.defaultDeployments);
    let issue: SettingsError | null = null;
    let current = defaults;
    if (raw !== undefined) {
      try {
        const parsed = SettingsSchema.safeParse(migrateSettings(raw));
        if (!parsed.success) throw toSettingsError(parsed.error);
        current = parsed.data;
      } catch (err) {
        issue =
          err instanceof SettingsError
            ? err
            : new SettingsError('INVALID_SETTINGS', 'The stored settings could not be read.');
        this.#store.set(`${STORE_KEY}.unreadable`, raw);
      }
    }
    this.loadIssue = issue;
    this.#current = current;
    if (raw === undefined || issue !== null || !isPlainObject(raw) || raw['version'] !== current.version) {
      this.#store.set(STORE_KEY, current);
    }
  }

  getSettings(): Settings {
    return structuredClone(this.#current);
  }

  /**
   * Reads without copying the whole settings (getSettings does): for lookups made on every signature.
   * `pick` must only read, and must copy whatever part of the settings it returns.
   */
  read<T>(pick: (settings: Readonly<Settings>) => T): T {
    return pick(this.#current);
  }

  /** Applies a partial change. A bad patch throws INVALID_SETTINGS (with its path) and changes nothing. */
  updateSettings(patch: SettingsPatch | Record<string, unknown>): Settings {
    if (!isPlainObject(patch))
      throw new SettingsError('INVALID_SETTINGS', 'Setting not saved: the change must be an object.');
    const parsed = SettingsSchema.safeParse(merge(this.#current, patch));
    if (!parsed.success) throw toSettingsError(parsed.error);
    return this.#commit(parsed.data);
  }

  /** For pinning.ts: replaces the pin tables (validated like any other change). */
  writePins(pins: Settings['pins'], pendingPinChanges: Settings['pendingPinChanges']): Settings {
    const parsed = SettingsSchema.safeParse({ ...this.#current, pins, pendingPinChanges });
    if (!parsed.success) throw toSettingsError(parsed.error);
    return this.#commit(parsed.data);
  }

  /** Calls `listener` after every change; returns the function that unsubscribes. */
  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #commit(next: Settings): Settings {
    const previous = this.#current;
    this.#store.set(STORE_KEY, next);
    this.#current = next;
    for (const listener of [...this.#listeners]) {
      try {
        listener(structuredClone(next), structuredClone(previous));
      } catch {
        /* a listener's failure must not undo a saved change */
      }
    }
    return structuredClone(next);
  }
}
