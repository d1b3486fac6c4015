/**
 * Semantic versions (semver.org 2.0.0) as release manifests and package.json write them: parsed
 * strictly and compared by precedence. Small on purpose: it decides whether a signed release is newer
 * than the running app (no downgrade) and whether the running app may update to it automatically.
 */

export interface Version {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  /** Dot-separated pre-release identifiers; empty for a release. */
  readonly pre: readonly string[];
  readonly text: string;
}

const SEMVER =
  /^(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The version, or null when the text is not a semantic version (build metadata is ignored, as semver says). */
export function parseVersion(text: string): Version | null {
  if (text.length > 64) return null;
  const m = SEMVER.exec(text);
  if (!m) return null;
  return {
    major: BigInt(m[1]!),
    minor: BigInt(m[2]!),
    patch: BigInt(m[3]!),
    pre: m[4] === undefined ? [] : m[4].split('.'),
    text,
  };
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return BigInt(a) === BigInt(b) ? 0 : BigInt(a) < BigInt(b) ? -1 : 1;
  // Numeric identifiers have lower precedence than alphanumeric ones.
  if (an !== bn) return an ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Negative when a comes before b, 0 when they have the same precedence, positive after. */
export function compareVersions(a: Version, b: Version): number {
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  // A pre-release comes before the release of the same numbers.
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdentifiers(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return a.pre.length - b.pre.length;
}
