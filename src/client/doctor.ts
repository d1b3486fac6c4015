// The signature doctor: after the exchange refuses a signed request for authentication reasons,
// recompute everything locally from the bytes that were sent and say which of the nine
// failure conditions applies (docs/protocol/endpoints.md#why-a-signed-request-fails).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import {
  REQUEST_KINDS,
  STRUCTS,
  SignatureType,
  bytesToHex,
  domainSeparatorBytes,
  hashAction,
  hashedFields,
  hexToBytes,
  recoverDigestSigner,
  type ExchangeDomain,
  type FieldDef,
  type Hex,
  type PrimaryType,
  type RequestKind,
} from '../shared/protocol';
import type { AuthFailureCondition, Diagnosis } from './errors';
import type { AgentStatus, ExchangeConfig } from './http/schemas';
import { exchangeSaid } from './exchange-words';

/** Everything the doctor looks at; the async collector in the signed client fills the optional parts. */
export interface DoctorFacts {
  kind: RequestKind;
  /** The JSON body exactly as sent. */
  body: unknown;
  /** The domain the client signed with. */
  domain: Readonly<ExchangeDomain>;
  /** The server's error code (e.g. ORDER_HASH_MISMATCH). */
  code: string;
  /** The server's own view, when reachable. */
  serverConfig?: ExchangeConfig | null;
  /** /agents/status of the sender, for agent actions, when reachable. */
  agentStatus?: AgentStatus | null;
}

const SENTENCES: Record<AuthFailureCondition, string> = {
  WRONG_DOMAIN: 'The request was signed for another chain or exchange contract than the one the exchange uses.',
  FIELD_CHANGED_AFTER_HASHING:
    'A signed field was changed after the digest was computed, so the signature covers different values.',
  HUMAN_DECIMALS_SIGNED: 'Human decimals (cents or contracts) were signed instead of protocol integers.',
  WRONG_FIELD_ORDER_OR_WIDTH:
    'The digest was computed with the fields in the wrong order or with a wrong integer width.',
  DIGEST_MISMATCH: 'The submitted digest (orderHash) does not match the action.',
  SIGNER_MISMATCH: "The signature was made by a different key than the action's signer.",
  AGENT_APPROVAL_NOT_ACTIVE:
    'The agent has no active approval from the master account (missing, revoked or expired); approve it again.',
  WRONG_APPROVAL_NONCE: "The action carries a different approval nonce than the master's current agent approval.",
  SIGNATURE_TYPE_MISMATCH:
    'The signature type does not match who signed: EOA actions need signer = sender and type 0, agent actions type 4 with the agent as signer.',
};

function verdict(condition: AuthFailureCondition, detail?: string): Diagnosis {
  return { condition, sentence: detail ? `${SENTENCES[condition]} ${detail}` : SENTENCES[condition] };
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEC = /^(0|[1-9][0-9]*)$/;
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');

// ------------------------------------------------------------------ a tolerant EIP-712 encoder

interface Slot {
  name: string;
  type: string;
  word: Uint8Array;
}

function word(f: FieldDef, v: unknown): Uint8Array | null {
  const w = new Uint8Array(32);
  if (f.enc === 'keccak') {
    if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) return null;
    return keccak_256(hexToBytes(v));
  }
  if (f.type === 'bool') {
    if (typeof v !== 'boolean') return null;
    w[31] = v ? 1 : 0;
    return w;
  }
  if (f.type === 'address' || f.type === 'bytes32') {
    const want = f.type === 'address' ? 40 : 64;
    if (typeof v !== 'string' || !new RegExp(`^0x[0-9a-fA-F]{${want}}$`).test(v)) return null;
    w.set(hexToBytes(v), 32 - want / 2);
    return w;
  }
  const n = typeof v === 'bigint' ? v : typeof v === 'string' && DEC.test(v) ? BigInt(v) : null;
  if (n === null || n >= 1n << 256n) return null;
  w.set(hexToBytes(`0x${n.toString(16).padStart(64, '0')}`));
  return w;
}

function slotsOf(p: PrimaryType, action: Json): Slot[] | null {
  const out: Slot[] = [];
  for (const f of hashedFields(p)) {
    const w = word(f, action[f.key]);
    if (!w) return null;
    out.push({ name: f.member ?? f.key, type: f.type, word: w });
  }
  return out;
}

function digestOf(p: PrimaryType, typeSlots: readonly Slot[], valueSlots: readonly Slot[], separator: Uint8Array): Hex {
  const ts = `${p}(${typeSlots.map((s) => `${s.type} ${s.name}`).join(',')})`;
  const buf = new Uint8Array(32 * (valueSlots.length + 1));
  buf.set(keccak_256(utf8ToBytes(ts)), 0);
  valueSlots.forEach((s, i) => buf.set(s.word, 32 * (i + 1)));
  const d = new Uint8Array(66);
  d[0] = 0x19;
  d[1] = 0x01;
  d.set(separator, 2);
  d.set(keccak_256(buf), 34);
  return bytesToHex(keccak_256(d));
}

/** Digests a client would get with fields moved (type string moved too, or only the values) or widened. */
function* orderAndWidthVariants(p: PrimaryType, slots: Slot[], sep: Uint8Array): Generator<Hex> {
  const n = slots.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const moved = slots.slice();
      const [s] = moved.splice(i, 1);
      moved.splice(j, 0, s!);
      yield digestOf(p, moved, moved, sep);
      yield digestOf(p, slots, moved, sep);
    }
  }
  const widths = ['uint8', 'uint24', 'uint32', 'uint64', 'uint128', 'uint256'];
  for (let i = 0; i < n; i++) {
    if (!slots[i]!.type.startsWith('uint')) continue;
    for (const t of widths) {
      if (t === slots[i]!.type) continue;
      const changed = slots.map((s, k) => (k === i ? { ...s, type: t } : s));
      yield digestOf(p, changed, changed, sep);
    }
  }
  const allWide = slots.map((s) => (s.type.startsWith('uint') ? { ...s, type: 'uint256' } : s));
  yield digestOf(p, allWide, allWide, sep);
}

/** Human-unit readings of the quantity fields: tenth-cents or cents for price, contracts or lots for size/amount. */
const HUMAN_SCALES: Record<string, bigint[]> = {
  price: [1_000n, 10_000n, 1_000_000n],
  size: [1_000_000n, 10_000n],
  amount: [1_000_000n, 10_000n],
};

function* humanVariants(p: PrimaryType, action: Json, sep: Uint8Array): Generator<Hex> {
  const keys = Object.keys(HUMAN_SCALES).filter((k) => typeof action[k] === 'string' && DEC.test(action[k]));
  const choices = keys.map((k) => [1n, ...HUMAN_SCALES[k]!].filter((d) => BigInt(action[k] as string) % d === 0n));
  // Every combination of one divisor per field (at most 4 × 3 × 3), except all-ones.
  const combo = (idx: number, acc: Json): Generator<Json> =>
    (function* () {
      if (idx === keys.length) {
        yield acc;
        return;
      }
      for (const d of choices[idx]!)
        yield* combo(idx + 1, { ...acc, [keys[idx]!]: (BigInt(action[keys[idx]!] as string) / d).toString() });
    })();
  for (const variant of combo(0, action)) {
    if (keys.every((k) => variant[k] === action[k])) continue;
    const slots = slotsOf(p, variant);
    if (slots) yield digestOf(p, slots, slots, sep);
  }
}

// ------------------------------------------------------------------ the diagnosis

interface SignedPart {
  primaryType: PrimaryType;
  action: Json;
  orderHash: unknown;
  signature: unknown;
}

function partsOf(kind: RequestKind, body: Json): { outer: SignedPart; replacement?: SignedPart } | null {
  const p = REQUEST_KINDS[kind].primaryType;
  const key = STRUCTS[p].jsonKey;
  const action = body[key];
  if (!isObj(action)) return null;
  const outer = { primaryType: p, action, orderHash: body['orderHash'], signature: body['signature'] };
  if (kind !== 'cancelReplace' || !isObj(body['replacement'])) return { outer };
  return {
    outer,
    replacement: {
      primaryType: 'FillOrder',
      action: body['replacement'],
      orderHash: body['replacementOrderHash'],
      signature: body['replacementSignature'],
    },
  };
}

function recovers(digest: unknown, signature: unknown, who: unknown): boolean {
  if (typeof digest !== 'string' || typeof signature !== 'string' || typeof who !== 'string') return false;
  try {
    return recoverDigestSigner(digest as Hex, signature as Hex).toLowerCase() === who.toLowerCase();
  } catch {
    return false;
  }
}

function domainWith(
  d: Readonly<ExchangeDomain>,
  chainId: unknown,
  cfg: ExchangeConfig | null | undefined,
): ExchangeDomain[] {
  const out: ExchangeDomain[] = [];
  if (typeof chainId === 'string' && DEC.test(chainId) && BigInt(chainId) !== d.chainId)
    out.push({ ...d, chainId: BigInt(chainId) });
  if (cfg)
    out.push({ ...d, chainId: cfg.chainId, verifyingContract: cfg.contracts.exchange, name: cfg.domainName ?? d.name });
  return out;
}

function diagnosePart(facts: DoctorFacts, part: SignedPart, domain: ExchangeDomain): Diagnosis | null {
  const { primaryType: p, action } = part;
  const sep = domainSeparatorBytes(domain);
  const slots = slotsOf(p, action);
  if (!slots)
    return verdict('WRONG_FIELD_ORDER_OR_WIDTH', 'Some signed fields cannot be encoded as their declared types.');
  for (const f of hashedFields(p)) {
    const v = action[f.key];
    const m = /^uint(\d+)$/.exec(f.type);
    if (m && typeof v === 'string' && DEC.test(v) && BigInt(v) >> BigInt(m[1]!) !== 0n) {
      return verdict('WRONG_FIELD_ORDER_OR_WIDTH', `"${f.key}" does not fit in ${f.type}.`);
    }
  }
  const digest = digestOf(p, slots, slots, sep);
  const sent = lower(part.orderHash);
  const signer = action['signer'];
  if (digest !== sent) {
    if (recovers(digest, part.signature, signer))
      return verdict('DIGEST_MISMATCH', `The action hashes to ${digest}, but ${String(part.orderHash)} was sent.`);
    for (const v of humanVariants(p, action, sep)) if (v === sent) return verdict('HUMAN_DECIMALS_SIGNED');
    for (const v of orderAndWidthVariants(p, slots, sep)) if (v === sent) return verdict('WRONG_FIELD_ORDER_OR_WIDTH');
    for (const d of domainWith(
      domain,
      facts.body && isObj(facts.body) ? facts.body['chainId'] : undefined,
      facts.serverConfig,
    )) {
      try {
        if (hashAction(p, toHashInput(p, action) as never, d) === sent) return verdict('WRONG_DOMAIN');
      } catch {
        /* not hashable under the strict encoder: ignore this variant */
      }
    }
    if (recovers(part.orderHash, part.signature, signer)) return verdict('FIELD_CHANGED_AFTER_HASHING');
    return verdict('DIGEST_MISMATCH');
  }
  if (!recovers(digest, part.signature, signer)) {
    let who = 'an unrecoverable signature';
    try {
      who = recoverDigestSigner(digest, part.signature as Hex);
    } catch {
      /* keep the generic wording */
    }
    return verdict('SIGNER_MISMATCH', `It recovers to ${who}, not ${String(signer)}.`);
  }
  return null;
}

function toHashInput(p: PrimaryType, action: Json): Json {
  const out: Json = {};
  for (const f of hashedFields(p)) {
    const v = action[f.key];
    out[f.key] = typeof v === 'string' && DEC.test(v) && f.type.startsWith('uint') ? BigInt(v) : v;
  }
  return out;
}

function signatureTypeProblem(kind: RequestKind, action: Json): string | null {
  const t = action['signatureType'];
  const same = lower(action['signer']) === lower(action['sender']);
  const eoaOnly = kind === 'withdrawals' || kind === 'agentsApprove' || kind === 'agentsRevoke';
  if (t !== '0' && t !== '4') return `signatureType ${String(t)} is not used by the API.`;
  if (t === '0' && !same) return 'signatureType is 0 (EOA) but signer and sender differ.';
  if (t === '4' && eoaOnly) return 'This action must be signed by the account itself (signatureType 0).';
  if (t === '4' && same) return 'signatureType is 4 (agent) but the signer is the sender itself.';
  return null;
}

/** The pure diagnosis. */
export function diagnose(facts: DoctorFacts): Diagnosis {
  if (!isObj(facts.body))
    return { condition: 'UNKNOWN', sentence: 'The request body could not be read back for diagnosis.' };
  const parts = partsOf(facts.kind, facts.body);
  if (!parts) return { condition: 'UNKNOWN', sentence: 'The request body has no action to diagnose.' };
  const action = parts.outer.action;

  for (const k of ['price', 'size', 'amount'])
    if (typeof action[k] === 'string' && !DEC.test(action[k]))
      return verdict('HUMAN_DECIMALS_SIGNED', `"${k}" is "${action[k]}".`);

  const cfg = facts.serverConfig;
  const chainId = facts.body['chainId'];
  if (cfg) {
    const problems: string[] = [];
    if (chainId !== cfg.chainId.toString())
      problems.push(`the request says chain ${String(chainId)}, the exchange runs on chain ${cfg.chainId}`);
    if (facts.domain.chainId !== cfg.chainId) problems.push(`it was signed for chain ${facts.domain.chainId}`);
    if (facts.domain.verifyingContract.toLowerCase() !== cfg.contracts.exchange.toLowerCase())
      problems.push(
        `it was signed for contract ${facts.domain.verifyingContract}, the exchange contract is ${cfg.contracts.exchange}`,
      );
    if (cfg.domainName !== undefined && cfg.domainName !== facts.domain.name)
      problems.push(`domain name "${facts.domain.name}" differs from "${cfg.domainName}"`);
    if (problems.length > 0) return verdict('WRONG_DOMAIN', `Here ${problems.join('; ')}.`);
  }

  if (/WRONG_CHAIN/.test(facts.code))
    return verdict('WRONG_DOMAIN', `The exchange does not sign on chain ${String(chainId)}.`);

  const st = signatureTypeProblem(facts.kind, action);
  if (st) return verdict('SIGNATURE_TYPE_MISMATCH', st);

  const domain: ExchangeDomain =
    typeof chainId === 'string' && DEC.test(chainId)
      ? { ...facts.domain, chainId: BigInt(chainId) }
      : { ...facts.domain };
  // A replacement-specific code points at the replacement pair first.
  const order =
    facts.code.includes('REPLACEMENT') && parts.replacement
      ? [parts.replacement, parts.outer]
      : [parts.outer, parts.replacement];
  for (const part of order) {
    if (!part) continue;
    const d = diagnosePart(facts, part, domain);
    if (d) return d;
  }

  if (facts.kind === 'agentsApprove') {
    const inner = { master: action['signer'], agent: action['agent'], approvalNonce: action['approvalNonce'] };
    const innerSlots = slotsOf('AgentApproval', inner);
    const innerDigest = innerSlots
      ? digestOf('AgentApproval', innerSlots, innerSlots, domainSeparatorBytes(domain))
      : null;
    if (!recovers(innerDigest, action['approvalSignature'], action['signer'])) {
      return verdict(
        'SIGNER_MISMATCH',
        'The inner AgentApproval signature was not made by the master account over this agent and approval nonce.',
      );
    }
  }

  if (action['signatureType'] === SignatureType.AGENT.toString()) {
    const s = facts.agentStatus;
    if (s) {
      if (s.status !== 'active' || s.agent === '' || s.agent.toLowerCase() !== lower(action['signer'])) {
        const why =
          s.agent === ''
            ? 'there is no approved agent'
            : s.agent.toLowerCase() !== lower(action['signer'])
              ? `the approved agent is ${s.agent}`
              : `the approval is ${s.status}`;
        return verdict('AGENT_APPROVAL_NOT_ACTIVE', `For ${String(action['sender'])}, ${why}.`);
      }
      if (s.nonce.toString() !== action['approvalNonce'])
        return verdict(
          'WRONG_APPROVAL_NONCE',
          `The current approval nonce is ${s.nonce}; the action carries ${String(action['approvalNonce'])}.`,
        );
    } else if (/APPROVAL|AGENT/.test(facts.code)) {
      return verdict(/NONCE/.test(facts.code) ? 'WRONG_APPROVAL_NONCE' : 'AGENT_APPROVAL_NOT_ACTIVE');
    }
  }

  if (/HASH_MISMATCH/.test(facts.code)) {
    return verdict(
      'WRONG_DOMAIN',
      'The digest is right for the domain this client signed with, so the exchange must be using another domain (name, chain or contract).',
    );
  }
  return { condition: 'UNKNOWN', sentence: `The request checks out locally. ${exchangeSaid(facts.code)}` };
}
