// Shared helpers for protocol tests: turn fixture JSON into typed values via the struct table.
import vectors from '../fixtures/vectors.json';
import {
  STRUCTS,
  type ActionOf,
  type ExchangeDomain,
  type FieldDef,
  type PrimaryType,
} from '../../src/shared/protocol';

export { vectors };
export type EipVector = (typeof vectors.eip712)[number];

export function domainOf(d: {
  name: string;
  version: string;
  chainId: string;
  verifyingContract: string;
}): ExchangeDomain {
  return {
    name: d.name,
    version: d.version,
    chainId: BigInt(d.chainId),
    verifyingContract: d.verifyingContract as `0x${string}`,
  };
}

/**
 * Fixture message → typed action, field by field from the table (no parser involved, so
 * encoding-edge-case vectors beyond the wire widths still load).
 */
export function actionFromMessage<P extends PrimaryType>(
  primaryType: P,
  message: Record<string, unknown>,
): ActionOf<P> {
  const msg = { ...message };
  if (primaryType === 'AgentApproval') {
    // The fixture uses the struct member name; our object uses the reference client's key.
    msg['approvalNonce'] = msg['nonce'];
    delete msg['nonce'];
    msg['approvalSignature'] ??= '0x';
  }
  const out: Record<string, unknown> = {};
  for (const f of STRUCTS[primaryType].fields as readonly FieldDef[]) {
    const v = msg[f.key];
    if (v === undefined) throw new Error(`fixture ${primaryType} lacks ${f.key}`);
    const isInt = f.type.startsWith('uint') && f.enc !== 'keccak';
    out[f.key] = isInt ? BigInt(v as string) : v;
  }
  return out as ActionOf<P>;
}
