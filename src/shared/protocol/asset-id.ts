// Asset id packing, LSB first (docs/protocol/units.md#asset-ids), and timeframe strings.
import { ProtocolValidationError, UnitsError, type ValidationIssue } from './errors';

export interface AssetIdFields {
  /** Base asset id; also the oracle symbolId. */
  id: bigint;
  /** 1 = up/down. */
  marketType: bigint;
  /** Unix seconds. */
  startTime: bigint;
  /** Seconds. */
  periodLength: bigint;
  strike: bigint;
  range: bigint;
  reserved: bigint;
}

/** Layout, LSB first: [field, bit offset, bit width]. */
export const ASSET_ID_LAYOUT = [
  ['id', 0n, 64n],
  ['marketType', 64n, 8n],
  ['startTime', 72n, 32n],
  ['periodLength', 104n, 32n],
  ['strike', 136n, 48n],
  ['range', 184n, 16n],
  ['reserved', 200n, 56n],
] as const satisfies readonly (readonly [keyof AssetIdFields, bigint, bigint])[];

const MAX_ASSET_ID = (1n << 256n) - 1n;

/** Pack fields into the uint256 asset id. `reserved` defaults to 0. Each field is width-checked. */
export function packAssetId(fields: Omit<AssetIdFields, 'reserved'> & { reserved?: bigint }): bigint {
  const issues: ValidationIssue[] = [];
  let out = 0n;
  for (const [name, offset, width] of ASSET_ID_LAYOUT) {
    const v = name === 'reserved' ? (fields.reserved ?? 0n) : fields[name];
    const max = (1n << width) - 1n;
    if (typeof v !== 'bigint') {
      issues.push({ code: 'invalid_type', path: `$.${name}`, message: `Asset id field ${name} must be a bigint.` });
    } else if (v < 0n || v > max) {
      issues.push({
        code: 'integer_out_of_range',
        path: `$.${name}`,
        message: `Asset id field ${name} must be between 0 and ${max}.`,
      });
    } else {
      out |= v << offset;
    }
  }
  if (issues.length > 0) throw new ProtocolValidationError(issues);
  return out;
}

export function unpackAssetId(assetId: bigint): AssetIdFields {
  if (typeof assetId !== 'bigint' || assetId < 0n || assetId > MAX_ASSET_ID) {
    throw new ProtocolValidationError([
      { code: 'integer_out_of_range', path: '$.assetId', message: 'An asset id must be a uint256 bigint.' },
    ]);
  }
  const out = {} as AssetIdFields;
  for (const [name, offset, width] of ASSET_ID_LAYOUT) out[name] = (assetId >> offset) & ((1n << width) - 1n);
  return out;
}

/** startTime + periodLength (unix seconds); a convenience value, not stored in the id. */
export function assetExpiration(assetIdOrFields: bigint | AssetIdFields): bigint {
  const f = typeof assetIdOrFields === 'bigint' ? unpackAssetId(assetIdOrFields) : assetIdOrFields;
  return f.startTime + f.periodLength;
}

/** Seconds per timeframe unit (docs/protocol/units.md#asset-ids): M is 30 days, y is 365 days, H is an alias of h. */
export const TIMEFRAME_UNITS = {
  s: 1n,
  m: 60n,
  h: 3_600n,
  H: 3_600n,
  d: 86_400n,
  w: 604_800n,
  M: 2_592_000n,
  y: 31_536_000n,
} as const;

const TIMEFRAME_RE = /^([1-9][0-9]{0,15})([smhHdwMy])$/;
// Largest unit first, so formatting picks the shortest exact spelling.
const FORMAT_ORDER = ['y', 'M', 'w', 'd', 'h', 'm', 's'] as const;

/** "15m" → 900n; "1H" → 3600n. A positive integer followed by one unit. */
export function parseTimeframe(s: string): bigint {
  const m = typeof s === 'string' ? TIMEFRAME_RE.exec(s) : null;
  if (!m) {
    throw new UnitsError(
      'INVALID_TIMEFRAME',
      'A timeframe is a positive whole number followed by one of s, m, h, H, d, w, M, y (e.g. "15m").',
    );
  }
  return BigInt(m[1]!) * TIMEFRAME_UNITS[m[2] as keyof typeof TIMEFRAME_UNITS];
}

/** 900n → "15m": the largest unit that divides the seconds exactly. */
export function formatTimeframe(seconds: bigint): string {
  if (typeof seconds !== 'bigint' || seconds <= 0n) {
    throw new UnitsError('INVALID_TIMEFRAME', 'A timeframe must be a positive number of seconds.');
  }
  for (const u of FORMAT_ORDER) {
    const size = TIMEFRAME_UNITS[u];
    if (seconds % size === 0n) return `${seconds / size}${u}`;
  }
  return `${seconds}s`;
}

/** "2026-01-02 03:04 UTC" (seconds only when the time has them): a unix second for people. */
function utcMinute(sec: bigint): string {
  const iso = new Date(Number(sec) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, sec % 60n === 0n ? 16 : 19)} UTC`;
}

/** "2026-01-02 03:16 to 03:17 UTC": when an epoch of a market trades; null for a value that is no asset id. */
export function epochWindow(assetId: bigint, epoch: bigint): string | null {
  let f: AssetIdFields;
  try {
    f = unpackAssetId(assetId);
  } catch {
    return null;
  }
  if (f.periodLength === 0n) return null;
  const start = utcMinute(f.startTime + epoch * f.periodLength);
  const end = utcMinute(f.startTime + (epoch + 1n) * f.periodLength);
  // The end's date only when it is another day than the start's.
  const from = start.replace(/ UTC$/, '');
  return `${from} to ${end.slice(0, 10) === start.slice(0, 10) ? end.slice(11) : end}`;
}

/**
 * A market named by what its asset id says, for a machine that knows no name for it (an offline
 * signer): "symbol 1 · 1m market, epoch 12 (2026-01-02 03:16 to 03:17 UTC)", never the 30-odd digit
 * id itself. A value that is no asset id is shown as the number it is.
 */
export function describeMarketByFacts(assetId: bigint, epoch: bigint): string {
  const window = epochWindow(assetId, epoch);
  if (window === null) return `asset ${assetId}, epoch ${epoch}`;
  const f = unpackAssetId(assetId);
  const strike = f.strike === 0n ? '' : `, strike parameter ${f.strike}`;
  return `symbol ${f.id} · ${formatTimeframe(f.periodLength)} market${strike}, epoch ${epoch} (${window})`;
}
