// Request authentication (docs/protocol/signing.md#server-side-check, docs/protocol/agents.md): strict parsing, chain
// id, digest, signer, signature-type rules, agent approvals, roles, and single use of digests. Every failure is a
// ServiceError thrown before any state changes.
import {
  bytesToHex,
  hashActionBytes,
  parseSignedRequest,
  ProtocolValidationError,
  type ExchangeDomain,
  type Hex,
  type HashInputOf,
  type PrimaryType,
  type RequestKind,
  type SignedRequest,
  type ValidationIssue,
} from '../../shared/protocol';
import { badRequest, forbidden, notFound, unauthorized } from './errors';
import type { AgentRecord, Ledger } from './ledger';
import type { SignatureChecker } from './signature-pool';

/** Codes a route uses for malformed bodies (docs/protocol/endpoints.md#error-codes). */
export interface ParseCodes {
  /** Key of the action object in the body. */
  actionKey: string;
  /** e.g. MISSING_ORDER_OR_SIGNATURE. */
  missing: string;
  /** e.g. INVALID_ORDER_PARAMETERS. */
  params: string;
}

export interface AuthContext {
  domain: Readonly<ExchangeDomain>;
  /** Asynchronous (batched, possibly on a worker thread): state checks belong after its answer. */
  verifier: SignatureChecker;
  ledger: Ledger;
  nowMs(): number;
  /** Seconds an approval stays usable after its approvalNonce timestamp. */
  agentLifetimeSec: bigint;
}

const AUTH_FIELDS = new Set(['typ', 'nonce', 'signer', 'signatureType', 'sender']);

function codeForIssue(issue: ValidationIssue, codes: ParseCodes): string {
  const m = /^\$\.([A-Za-z]+)(?:\.([A-Za-z]+))?/.exec(issue.path);
  const top = m?.[1];
  const field = m?.[2];
  if (top === undefined) return 'INVALID_REQUEST';
  const isReplacement = top === 'replacement';
  if (top !== codes.actionKey && !isReplacement) return 'INVALID_REQUEST';
  if (field === undefined) return isReplacement ? 'INVALID_REPLACEMENT_ORDER_PARAMETERS' : codes.params;
  if (field === 'timeInForce') return isReplacement ? 'INVALID_REPLACEMENT_TIME_IN_FORCE' : 'INVALID_TIME_IN_FORCE';
  if (field === 'allOrNothing') return 'INVALID_ALL_OR_NOTHING';
  if (field === 'signatureType' && issue.code !== 'missing_field') return 'INVALID_SIGNATURE_TYPE';
  if (field === 'typ' && codes.actionKey === 'cancelReplace')
    return isReplacement ? 'INVALID_REPLACEMENT_TYPE' : 'INVALID_CANCEL_REPLACE_TYPE';
  if (AUTH_FIELDS.has(field)) return 'INVALID_AUTH_PARAMETERS';
  return isReplacement ? 'INVALID_REPLACEMENT_ORDER_PARAMETERS' : codes.params;
}

/** Strict wrapper parse; 400 with a route code and the field issues. */
export function parseRequest<K extends RequestKind>(kind: K, body: unknown, codes: ParseCodes): SignedRequest<K> {
  try {
    return parseSignedRequest(kind, body);
  } catch (e) {
    if (!(e instanceof ProtocolValidationError)) throw e;
    const envelopeKeys = new Set([
      `$.${codes.actionKey}`,
      '$.signature',
      '$.orderHash',
      '$.replacement',
      '$.replacementSignature',
      '$.replacementOrderHash',
    ]);
    const missing = e.issues.some((i) => i.code === 'missing_field' && envelopeKeys.has(i.path));
    const first = e.issues[0]!;
    const code = missing ? codes.missing : codeForIssue(first, codes);
    throw badRequest(code, `The request body is invalid at ${first.path}: ${first.message}`, e.issues);
  }
}

export function checkChainId(chainId: bigint, ctx: AuthContext): void {
  if (chainId !== ctx.domain.chainId) {
    throw unauthorized(
      'WRONG_CHAIN_ID',
      `This exchange signs on chain ${ctx.domain.chainId}; the request names chain ${chainId}.`,
    );
  }
}

/**
 * Recomputes the digest over our domain and compares it with `orderHash`, then checks the signature
 * against `signer`. Returns the digest (lowercase hex). Other requests run while the signature is
 * checked, so callers decide everything that depends on state (single use, agents, nonces) after this
 * resolves, synchronously up to the ledger submit.
 */
export async function verifyPair<P extends PrimaryType>(
  ctx: AuthContext,
  primaryType: P,
  action: HashInputOf<P>,
  orderHash: string,
  signature: string,
  signer: string,
  codes: { mismatch: string; signature: string },
): Promise<Hex> {
  const digest = hashActionBytes(primaryType, action, ctx.domain);
  const hex = bytesToHex(digest);
  if (hex !== orderHash.toLowerCase()) {
    throw unauthorized(
      codes.mismatch,
      `orderHash does not equal the ${primaryType} digest over this exchange's domain (chain id, verifying contract, name, version).`,
    );
  }
  if (!(await ctx.verifier.verify(digest, signature, signer))) {
    throw unauthorized(codes.signature, `The signature does not recover to the signer ${signer}.`);
  }
  return hex;
}

export function checkNotProcessed(ctx: AuthContext, digest: string, code = 'ENTRY_PROCESSED'): void {
  if (ctx.ledger.isProcessed(digest)) throw notFound(code, 'An action with this digest was already processed.');
}

interface AuthPrefix {
  signer: string;
  sender: string;
  signatureType: bigint;
  approvalNonce?: bigint;
}

export type AgentApprovalState = 'active' | 'inactive' | 'expired';

/** The lifetime rule (README.md): active until revoked or replaced; expired once now > approvalNonce + lifetime. */
export function approvalStatus(rec: AgentRecord | undefined, ctx: AuthContext): AgentApprovalState {
  if (rec === undefined || rec.revoked) return 'inactive';
  const nowSec = BigInt(Math.floor(ctx.nowMs() / 1000));
  return nowSec > rec.approvalNonce + ctx.agentLifetimeSec ? 'expired' : 'active';
}

/** Rules for routes that take EOA or agent signatures (orders, cancels, cancel-replace, claims). */
export function checkEoaOrAgent(ctx: AuthContext, a: AuthPrefix): void {
  const signer = a.signer.toLowerCase();
  const sender = a.sender.toLowerCase();
  const st = a.signatureType;
  if (st === 0n) {
    if (signer !== sender)
      throw badRequest(
        'EOA_SIGNER_AND_SENDER_MUST_MATCH',
        'An EOA action (signatureType 0) must have signer equal to sender.',
      );
    if (a.approvalNonce !== undefined && a.approvalNonce !== 0n)
      throw badRequest('APPROVAL_NONCE_MISMATCH', 'An EOA action must carry approvalNonce 0.');
    return;
  }
  if (st !== 4n)
    throw badRequest('UNSUPPORTED_SIGNATURE_TYPE', `Signature type ${st} is not supported; use 0 (EOA) or 4 (agent).`);
  if (signer === sender)
    throw badRequest(
      'SIGNATURE_TYPE_MISMATCH',
      'An agent action (signatureType 4) must be signed by the agent, not by the master (sender).',
    );
  const rec = ctx.ledger.state.agents.get(sender);
  if (rec === undefined)
    throw unauthorized('AGENT_NOT_APPROVED', `The master ${a.sender} has never approved an agent.`);
  if (rec.revoked || rec.agent !== signer)
    throw unauthorized('AGENT_APPROVAL_INACTIVE', `${a.signer} is not the current approved agent of ${a.sender}.`);
  if (approvalStatus(rec, ctx) === 'expired')
    throw unauthorized(
      'AGENT_APPROVAL_EXPIRED',
      `The agent approval of ${a.sender} has expired; approve the agent again.`,
    );
  if (a.approvalNonce !== rec.approvalNonce) {
    throw unauthorized(
      'APPROVAL_NONCE_MISMATCH',
      `approvalNonce must be the master's current approval nonce ${rec.approvalNonce}.`,
    );
  }
}

/** Rules for EOA-only routes (withdrawals, approve, revoke). */
export function checkEoaOnly(a: AuthPrefix, signerCode: string): void {
  if (a.signatureType !== 0n)
    throw badRequest(
      'UNSUPPORTED_SIGNATURE_TYPE',
      'This action must be signed by the account itself (signatureType 0).',
    );
  if (a.signer.toLowerCase() !== a.sender.toLowerCase())
    throw badRequest(signerCode, 'This action must have signer equal to sender.');
}

/** Who may act for a resolver or admin account: the account and the keys that sign for it. */
export interface RoleGrant {
  account: string;
  signers: readonly string[];
}

/** Resolver/admin routes: signer ≠ sender, the sender a configured account, the signer one of its keys, no agents. */
export function checkRole(a: AuthPrefix, grants: readonly RoleGrant[], notCode: 'NOT_RESOLVER' | 'NOT_ADMIN'): void {
  if (a.signatureType === 4n) throw unauthorized('AGENT_NOT_ALLOWED', 'Agents may not sign this action.');
  if (a.signatureType !== 0n)
    throw badRequest('UNSUPPORTED_SIGNATURE_TYPE', 'This action must be signed with signatureType 0.');
  const signer = a.signer.toLowerCase();
  const sender = a.sender.toLowerCase();
  if (signer === sender)
    throw badRequest('SIGNER_NOT_SENDER', 'For this action the signer must differ from the sender (the role account).');
  const role = notCode === 'NOT_RESOLVER' ? 'resolver' : 'admin';
  const grant = grants.find((g) => g.account.toLowerCase() === sender);
  if (grant === undefined) throw forbidden(notCode, `${a.sender} is not a configured ${role} account.`);
  if (!grant.signers.some((s) => s.toLowerCase() === signer))
    throw forbidden(notCode, `${a.signer} may not sign for the ${role} account ${a.sender}.`);
}
