// Shared steps of reading any of the three formats: tell which format a value claims to be, turn zod
// issues into one sentence, and rebuild the domain. Kept apart so each reader stays about its format.
import type { z } from 'zod';
import { makeExchangeDomain, type Address, type ExchangeDomain } from '../../shared/protocol';
import { sameAddress } from '../actions/inputs';
import { airgapError } from './errors';
import { KIT_FORMAT, REQUEST_FORMAT, RESPONSE_FORMAT, formatProbe, type AirgapFormat } from './formats';

const WHAT: Readonly<Record<AirgapFormat, string>> = {
  [REQUEST_FORMAT]: 'an unsigned request',
  [RESPONSE_FORMAT]: 'a signed response',
  [KIT_FORMAT]: 'an emergency kit',
};

/** Refuses anything that is not `expected`, naming what it is when it is another of ours. */
export function expectFormat(value: unknown, expected: AirgapFormat): void {
  const probe = formatProbe.safeParse(value);
  if (!probe.success)
    throw airgapError('AIRGAP_NOT_OURS', `This is not ${WHAT[expected]} from Exchange Terminal (it names no format).`);
  const format = probe.data.format;
  if (format === expected) return;
  const known = (Object.keys(WHAT) as AirgapFormat[]).find((f) => f === format);
  if (known) throw airgapError('AIRGAP_NOT_OURS', `This is ${WHAT[known]}, not ${WHAT[expected]}.`);
  const family = expected.slice(0, expected.indexOf('@') + 1);
  if (format.startsWith(family)) {
    throw airgapError(
      'AIRGAP_UNSUPPORTED_VERSION',
      `This is ${WHAT[expected]} in a version this terminal does not read (${format.slice(0, 80)}); update the terminal that reads it.`,
    );
  }
  throw airgapError('AIRGAP_NOT_OURS', `This is not ${WHAT[expected]} from Exchange Terminal.`);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.length === 0
    ? 'the top level'
    : path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.');
}

/** Parses with a zod schema; one sentence naming the first problem on failure. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw airgapError('AIRGAP_MALFORMED', `This ${what} is malformed at ${pathText(issue.path)}: ${issue.message}`);
}

export interface DomainJson {
  name: string;
  version: string;
  chainId: string;
  verifyingContract: string;
}

export function domainFromJson(d: DomainJson): Readonly<ExchangeDomain> {
  return makeExchangeDomain({
    name: d.name,
    version: d.version,
    chainId: BigInt(d.chainId),
    verifyingContract: d.verifyingContract as Address,
  });
}

export function domainToJson(d: Readonly<ExchangeDomain>): DomainJson {
  return { name: d.name, version: d.version, chainId: d.chainId.toString(), verifyingContract: d.verifyingContract };
}

export function sameDomain(a: Readonly<ExchangeDomain>, b: Readonly<ExchangeDomain>): boolean {
  return (
    a.name === b.name &&
    a.version === b.version &&
    a.chainId === b.chainId &&
    sameAddress(a.verifyingContract, b.verifyingContract)
  );
}

/** 16 random bytes as hex: names a request or kit; Web Crypto exists in node and in the window. */
export function randomId(): string {
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
