// EIP-712 domain of the exchange (docs/protocol/signing.md#the-exchange-domain) and its cached separator.
import { validationError } from './errors';
import { bytesToHex, type Address, type Hex } from './hex';
import { keccak_256, keccakUtf8 } from './keccak';
import { writeAddress, writeUint, checkUint } from './words';

export interface ExchangeDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: Address;
}

export const DEFAULT_DOMAIN_NAME = 'Service Exchange';
export const DOMAIN_VERSION = '2';
export const DOMAIN_TYPE_STRING = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';
export const DOMAIN_TYPEHASH = keccakUtf8(DOMAIN_TYPE_STRING);

/**
 * Build a frozen exchange domain. `verifyingContract` is the exchange contract (never the ledger);
 * the name comes from the chain configuration and defaults to the reference deployment's.
 */
export function makeExchangeDomain(opts: {
  chainId: bigint;
  verifyingContract: Address;
  name?: string;
  version?: string;
}): Readonly<ExchangeDomain> {
  const domain: ExchangeDomain = {
    name: opts.name ?? DEFAULT_DOMAIN_NAME,
    version: opts.version ?? DOMAIN_VERSION,
    chainId: checkUint(opts.chainId, 'uint256', '$.chainId'),
    verifyingContract: opts.verifyingContract,
  };
  const frozen = Object.freeze(domain);
  // Validates the address early; a domain built again from the same facts (as each signature does)
  // finds its separator cached instead of hashing it again.
  domainSeparatorBytes(frozen);
  return frozen;
}

// Frozen domains are cached by identity; others by value (a mutable object could change under us).
const byObject = new WeakMap<object, Uint8Array>();
const byValue = new Map<string, Uint8Array>();
const MAX_BY_VALUE = 256;

function computeSeparator(d: ExchangeDomain): Uint8Array {
  if (typeof d.name !== 'string' || typeof d.version !== 'string') {
    throw validationError('invalid_type', '$.domain', 'Domain name and version must be strings.');
  }
  const buf = new Uint8Array(160);
  buf.set(DOMAIN_TYPEHASH, 0);
  buf.set(keccakUtf8(d.name), 32);
  buf.set(keccakUtf8(d.version), 64);
  writeUint(buf, 96, checkUint(d.chainId, 'uint256', '$.domain.chainId'));
  writeAddress(buf, 128, d.verifyingContract, '$.domain.verifyingContract');
  return keccak_256(buf);
}

/** Domain separator bytes (shared cached array: do not mutate). */
export function domainSeparatorBytes(domain: ExchangeDomain): Uint8Array {
  const frozen = Object.isFrozen(domain);
  if (frozen) {
    const hit = byObject.get(domain);
    if (hit) return hit;
  }
  const key = `${domain.name}\u0000${domain.version}\u0000${String(domain.chainId)}\u0000${String(domain.verifyingContract).toLowerCase()}`;
  let sep = byValue.get(key);
  if (!sep) {
    sep = computeSeparator(domain);
    if (byValue.size >= MAX_BY_VALUE) byValue.clear();
    byValue.set(key, sep);
  }
  if (frozen) byObject.set(domain, sep);
  return sep;
}

export function domainSeparator(domain: ExchangeDomain): Hex {
  return bytesToHex(domainSeparatorBytes(domain));
}
