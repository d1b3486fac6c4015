/**
 * The size of settings, checked before they are parsed: a change from the window, and the stored file
 * at start-up. Each check costs at most its budget (size-budget.ts), so an oversized value is refused
 * (or trimmed) in well under a millisecond per thousand values instead of being parsed, copied and
 * written whole. docs/hostile-input.md says why each number.
 */
import { describeExcess, sizeExcess, type SizeBudget } from '../../shared/size-budget';
import { SettingsError } from './errors';
import { SETTINGS_LIMITS } from './schema';

/** A change the window sends: all of layout and hotkeys together are under 100 values. */
export const PATCH_BUDGET: SizeBudget = { values: 1_000, chars: 64 * 1024, depth: 8 };

/**
 * Stored settings at their largest real size: 50 deployments listing 200 markets each are about
 * 31,000 values and 1.3 million characters.
 */
export const STORED_BUDGET: SizeBudget = { values: 40_000, chars: 2 * 1024 * 1024, depth: 8 };

/** Refuses a change larger than any setting, in words for people, before it is merged or parsed. */
export function assertPatchSize(patch: Record<string, unknown>): void {
  const excess = sizeExcess(patch, PATCH_BUDGET);
  if (excess !== null) {
    throw new SettingsError(
      'SETTINGS_TOO_LARGE',
      `Setting not saved: the change is far larger than any setting (${describeExcess(excess, PATCH_BUDGET)}). Nothing was changed.`,
    );
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPanelEntry([id, size]: [string, unknown]): boolean {
  return (
    id.length >= 1 &&
    id.length <= SETTINGS_LIMITS.panelIdChars &&
    typeof size === 'number' &&
    Number.isInteger(size) &&
    size >= 0 &&
    size <= 10_000
  );
}

export interface TrimmedSettings {
  /** The stored value with its panel sizes cut to the limit (the same value when nothing was cut). */
  raw: unknown;
  /** Why something was cut, as a sentence for the log and the user; null when nothing was. */
  notice: string | null;
}

/**
 * Older versions saved any number of panel sizes (the window could write a million, 12 MB that every
 * later call copied). They are cosmetic, so the first well-formed ones up to the limit are kept (the
 * window writes its real panels first) and the rest dropped; everything else is left for the schema.
 */
export function trimStoredPanelSizes(raw: unknown): TrimmedSettings {
  if (!isPlainObject(raw) || !isPlainObject(raw['layout'])) return { raw, notice: null };
  const layout = raw['layout'];
  const sizes = layout['panelSizes'];
  if (!isPlainObject(sizes)) return { raw, notice: null };
  const entries = Object.entries(sizes);
  if (entries.length <= SETTINGS_LIMITS.panelSizes && entries.every(isPanelEntry)) return { raw, notice: null };
  const kept = entries.filter(isPanelEntry).slice(0, SETTINGS_LIMITS.panelSizes);
  return {
    raw: { ...raw, layout: { ...layout, panelSizes: Object.fromEntries(kept) } },
    notice:
      `The saved layout named ${entries.length.toLocaleString('en-US')} panel sizes; the app keeps at most ` +
      `${SETTINGS_LIMITS.panelSizes}, so ${kept.length} were kept and the rest dropped.`,
  };
}

/** Stored settings too large to be anything this app wrote: a sentence saying so, or null when they fit. */
export function storedSizeProblem(raw: unknown): string | null {
  const excess = sizeExcess(raw, STORED_BUDGET);
  if (excess === null) return null;
  return (
    `The stored settings were far larger than any this app writes (${describeExcess(excess, STORED_BUDGET)}), ` +
    'so they were not kept and the app starts from its defaults.'
  );
}
