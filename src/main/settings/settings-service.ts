import type { z } from 'zod';
import type { KeyValueStore } from '../store/key-value-store';
import { SettingsError } from './errors';
import { migrateSettings } from './migrations';
import { SettingsSchema, defaultSettings, type Deployment, type Settings } from './schema';
import { assertPatchSize, storedSizeProblem, trimStoredPanelSizes } from './size-bounds';

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

/**
 * Converts the first zod issue into a SettingsError carrying its path and a sentence. A bound written
 * for people (settings-schema's boundedRecord) is shown as written, without the path.
 */
export function toSettingsError(error: z.ZodError): SettingsError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  if (issue?.code === 'custom' && issue.params?.['forPeople'] === true) {
    return new SettingsError('INVALID_SETTINGS', `Setting not saved: ${issue.message}.`, path);
  }
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

/** Called with the new and the previous settings, both frozen. */
export type SettingsListener = (settings: Readonly<Settings>, previous: Readonly<Settings>) => void;

/** Freezes every object and array inside `value`: settings are shared, never copied, so none may change them. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validated, versioned settings behind the KeyValueStore. Stored data is migrated on load; data that
 * cannot be read is kept aside under "settings.unreadable" and defaults are used, so a bad file never
 * stops the app and is never silently destroyed. Stored data too large for this app to have written
 * is trimmed (panel sizes) or, past every real size, not kept at all (it would slow every later write
 * of the store); loadIssue says which.
 *
 * The current settings are one frozen object: reads share it (no copy per call, however often a
 * handler reads), and a change replaces it whole.
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
      const trimmed = trimStoredPanelSizes(raw);
      const tooLarge = storedSizeProblem(trimmed.raw);
      if (tooLarge !== null) {
        issue = new SettingsError('SETTINGS_TOO_LARGE', tooLarge);
      } else {
        try {
          const parsed = SettingsSchema.safeParse(migrateSettings(trimmed.raw));
          if (!parsed.success) throw toSettingsError(parsed.error);
          current = parsed.data;
          if (trimmed.notice !== null) issue = new SettingsError('SETTINGS_TOO_LARGE', trimmed.notice);
        } catch (err) {
          issue =
            err instanceof SettingsError
              ? err
              : new SettingsError('INVALID_SETTINGS', 'The stored settings could not be read.');
          this.#store.set(`${STORE_KEY}.unreadable`, trimmed.raw);
        }
      }
    }
    this.loadIssue = issue;
    this.#current = deepFreeze(structuredClone(current));
    if (raw === undefined || issue !== null || !isPlainObject(raw) || raw['version'] !== current.version) {
      this.#store.set(STORE_KEY, current);
    }
  }

  /** The current settings, frozen and shared (not a copy): build a new object to change anything. */
  getSettings(): Readonly<Settings> {
    return this.#current;
  }

  /** Reads the current (frozen) settings in place; the same as picking from getSettings(). */
  read<T>(pick: (settings: Readonly<Settings>) => T): T {
    return pick(this.#current);
  }

  /**
   * Applies a partial change. A bad patch throws INVALID_SETTINGS (with its path), one larger than any
   * setting SETTINGS_TOO_LARGE before it is even merged; either way nothing changes.
   */
  updateSettings(patch: SettingsPatch | Record<string, unknown>): Readonly<Settings> {
    if (!isPlainObject(patch))
      throw new SettingsError('INVALID_SETTINGS', 'Setting not saved: the change must be an object.');
    assertPatchSize(patch);
    const parsed = SettingsSchema.safeParse(merge(this.#current, patch));
    if (!parsed.success) throw toSettingsError(parsed.error);
    return this.#commit(parsed.data);
  }

  /** For pinning.ts: replaces the pin tables (validated like any other change). */
  writePins(pins: Settings['pins'], pendingPinChanges: Settings['pendingPinChanges']): Readonly<Settings> {
    const parsed = SettingsSchema.safeParse({ ...this.#current, pins, pendingPinChanges });
    if (!parsed.success) throw toSettingsError(parsed.error);
    return this.#commit(parsed.data);
  }

  /** Calls `listener` after every change; returns the function that unsubscribes. */
  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** `next` is the schema's own output (a fresh object), so freezing it touches nothing a caller holds. */
  #commit(next: Settings): Readonly<Settings> {
    const previous = this.#current;
    this.#store.set(STORE_KEY, next);
    this.#current = deepFreeze(next);
    for (const listener of [...this.#listeners]) {
      try {
        listener(this.#current, previous);
      } catch {
        /* a listener's failure must not undo a saved change */
      }
    }
    return this.#current;
  }
}
