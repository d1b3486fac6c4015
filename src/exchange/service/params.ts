// Path and query parameter parsing: decimal strings and addresses, each failure a 404/400 with the
// code docs/protocol/endpoints.md#error-codes lists for that route.
import { ADDRESS_RE, UINT_MAX } from '../../shared/protocol';
import { ServiceError } from './errors';

const DECIMAL_RE = /^(0|[1-9][0-9]*)$/;

export function decimalParam(value: string | undefined, max: bigint, code: string, what: string, status = 404): bigint {
  if (value === undefined || !DECIMAL_RE.test(value) || value.length > 78) {
    throw new ServiceError(status, code, `${what} must be a canonical decimal string.`);
  }
  const n = BigInt(value);
  if (n > max) throw new ServiceError(status, code, `${what} must be at most ${max}.`);
  return n;
}

export const assetIdParam = (v: string | undefined): bigint =>
  decimalParam(v, UINT_MAX.uint256, 'INVALID_ASSET_ID', 'The asset id');
export const epochParam = (v: string | undefined): bigint =>
  decimalParam(v, UINT_MAX.uint32, 'INVALID_EPOCH', 'The epoch');

/** Lowercased address or a ServiceError. */
export function addressParam(value: string | undefined, code = 'INVALID_ACCOUNT', status = 404): string {
  if (value === undefined || !ADDRESS_RE.test(value))
    throw new ServiceError(status, code, 'The account must be 0x followed by 40 hex digits.');
  return value.toLowerCase();
}

/** `depth` of GET /book: default 200, an integer 1..5000, anything else 400 INVALID_DEPTH. */
export function depthQuery(q: URLSearchParams): number {
  const raw = q.get('depth');
  if (raw === null) return 200;
  if (!/^[1-9][0-9]{0,3}$/.test(raw) || Number(raw) > 5000) {
    throw new ServiceError(400, 'INVALID_DEPTH', 'depth must be a whole number from 1 to 5000.');
  }
  return Number(raw);
}
