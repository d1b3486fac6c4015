// The emergency kit: cancel-alls pre-signed by the master for chosen markets over a range of epochs
// (several per epoch: after one is used, orders placed again can be cancelled again) and a revocation
// of the current agent. The watch-only machine keeps it and sends what applies, with no key present.
import { z } from 'zod';
import { buildSignedRequest, hashAction, type Address, type ExchangeDomain, type Hex } from '../../shared/protocol';
import {
  buildSignedCancelAll,
  buildSignedRevokeAgent,
  type SignedAction,
  type SigningContext,
} from '../actions/signed-actions';
import { sameAddress } from '../actions/inputs';
import { airgapError } from './errors';
import { checkCarriedSignature } from './signature-check';
import { domainFromJson, domainToJson, expectFormat, parseWith, randomId, type DomainJson } from './edge';
import { fingerprintOf } from './fingerprint';
import {
  KIT_FORMAT,
  MAX_KIT_ENTRIES,
  MAX_KIT_PER_EPOCH,
  kitJson,
  type AirgapContracts,
  type EmergencyKit,
  type KitCancel,
  type KitMarket,
} from './formats';
import { kitCancelAction, kitRevocationAction } from './steps';

export interface KitInput {
  contracts: AirgapContracts;
  markets: KitMarket[];
  perEpoch: number;
  /** Pre-sign a revocation of whatever agent is approved when it is sent. */
  revokeAgent: boolean;
  now?: () => Date;
  newId?: () => string;
}

function kitSize(markets: readonly KitMarket[], perEpoch: number): bigint {
  return markets.reduce((n, m) => n + (m.toEpoch - m.fromEpoch + 1n) * BigInt(perEpoch), 0n);
}

/**
 * Made on the machine that holds the master key (ctx.signer is that key). Every entry goes through
 * the online builder, so it is exactly what buildSignedCancelAll would send.
 */
export async function buildEmergencyKit(ctx: SigningContext, input: KitInput): Promise<EmergencyKit> {
  const { markets, perEpoch } = input;
  if (!Number.isInteger(perEpoch) || perEpoch < 1 || perEpoch > MAX_KIT_PER_EPOCH) {
    throw airgapError('AIRGAP_INCONSISTENT', `A kit holds between 1 and ${MAX_KIT_PER_EPOCH} cancel-alls per epoch.`);
  }
  if (markets.length === 0) throw airgapError('AIRGAP_INCONSISTENT', 'Choose at least one market for the kit.');
  for (const m of markets) {
    if (m.toEpoch < m.fromEpoch)
      throw airgapError(
        'AIRGAP_INCONSISTENT',
        `The epochs of ${m.label} run backwards (${m.fromEpoch} to ${m.toEpoch}).`,
      );
  }
  if (kitSize(markets, perEpoch) > BigInt(MAX_KIT_ENTRIES)) {
    throw airgapError(
      'AIRGAP_INCONSISTENT',
      `That kit would hold more than ${MAX_KIT_ENTRIES} signatures: choose fewer markets, epochs or cancels per epoch.`,
    );
  }
  if (!sameAddress(input.contracts.exchange, ctx.domain.verifyingContract)) {
    throw airgapError('AIRGAP_INCONSISTENT', 'The exchange contract is not the domain’s verifying contract.');
  }
  const signer = ctx.signer.address;
  const cancels: KitCancel[] = [];
  for (const m of markets) {
    for (let epoch = m.fromEpoch; epoch <= m.toEpoch; epoch++) {
      for (let k = 0; k < perEpoch; k++) {
        const s = await buildSignedCancelAll(ctx, { assetId: m.assetId, epoch });
        const entry = { assetId: m.assetId, epoch, nonce: s.request.cancel.nonce, signature: s.request.signature };
        // The kit stores only what varies; the template must rebuild the very struct that was signed.
        if (hashAction('CancelOrder', kitCancelAction(signer, entry), ctx.domain) !== s.orderHash) {
          throw airgapError('AIRGAP_INCONSISTENT', 'A kit entry does not rebuild to the cancel-all that was signed.');
        }
        cancels.push(entry);
      }
    }
  }
  let revocation: EmergencyKit['revocation'] = null;
  if (input.revokeAgent) {
    const s = await buildSignedRevokeAgent(ctx);
    revocation = { nonce: s.request.revocation.nonce, signature: s.request.signature };
  }
  const kit: EmergencyKit = {
    id: (input.newId ?? randomId)(),
    createdAt: (input.now?.() ?? new Date()).toISOString(),
    domain: ctx.domain,
    contracts: input.contracts,
    signer,
    perEpoch,
    markets: markets.map((m) => ({ ...m })),
    cancels,
    revocation,
    fingerprint: '',
  };
  return { ...kit, fingerprint: kitFingerprint(kit) };
}

export function kitCancelDigest(kit: Pick<EmergencyKit, 'signer' | 'domain'>, entry: KitCancel): Hex {
  return hashAction('CancelOrder', kitCancelAction(kit.signer, entry), kit.domain);
}

function revocationDigest(kit: Pick<EmergencyKit, 'signer' | 'domain'>, nonce: bigint): Hex {
  return hashAction('RevokeAgentOrder', kitRevocationAction(kit.signer, nonce), kit.domain);
}

/** Every digest the kit holds a signature for, in order: what its fingerprint binds. */
export function kitDigests(kit: EmergencyKit): Hex[] {
  const out = kit.cancels.map((c) => kitCancelDigest(kit, c));
  if (kit.revocation) out.push(revocationDigest(kit, kit.revocation.nonce));
  return out;
}

/** Binds every signed digest, the domain, and what the kit says about itself (coverage, labels, until). */
export function kitFingerprint(kit: EmergencyKit): string {
  return fingerprintOver(kit, kitDigests(kit));
}

/** kitFingerprint over digests already computed (kitDigests' order). */
function fingerprintOver(kit: EmergencyKit, digests: readonly Hex[]): string {
  const { ledger } = kit.contracts;
  const markets = kit.markets.map((m) => [m.assetId, m.label, m.fromEpoch, m.toEpoch, m.until].join('/'));
  // Addresses lower case: a change of hex case is not a change of address.
  const facts = [
    kit.id,
    kit.createdAt,
    kit.signer.toLowerCase(),
    kit.contracts.exchange.toLowerCase(),
    ledger?.toLowerCase() ?? '-',
    String(kit.perEpoch),
    ...markets,
  ];
  return fingerprintOf(kit.domain, digests, facts.join('\n'));
}

/**
 * What a kit says it covers adds up: markets listed once, epochs forward, as many entries as they
 * times perEpoch. No hashing: cheap next to kitChecks, and checked before it.
 */
function checkCoverage(kit: EmergencyKit): void {
  const assets = new Set<bigint>();
  for (const m of kit.markets) {
    if (assets.has(m.assetId)) throw airgapError('AIRGAP_INCONSISTENT', `The kit lists the market ${m.label} twice.`);
    if (m.toEpoch < m.fromEpoch) throw airgapError('AIRGAP_INCONSISTENT', `The epochs of ${m.label} run backwards.`);
    assets.add(m.assetId);
  }
  if (kitSize(kit.markets, kit.perEpoch) !== BigInt(kit.cancels.length)) {
    throw airgapError(
      'AIRGAP_INCONSISTENT',
      'The kit holds a different number of cancel-alls than the markets and epochs it says it covers.',
    );
  }
}

/**
 * The costly half of reading a kit (a few milliseconds per entry), in the order a reader always
 * refused in: each entry's market, epoch, nonce and signature, the counts per epoch, the revocation,
 * the exchange, then the fingerprint. One step per signature, so a caller can spread the work (main
 * runs it on a worker thread, or in slices: src/main/core/airgap/kit-checks.ts). Returns kitDigests(kit).
 */
export function* kitChecks(kit: EmergencyKit): Generator<void, Hex[], void> {
  const byMarket = new Map(kit.markets.map((m) => [m.assetId, m]));
  const counts = new Map<string, number>();
  const nonces = new Set<bigint>();
  const digests: Hex[] = [];
  for (const [i, c] of kit.cancels.entries()) {
    const m = byMarket.get(c.assetId);
    if (!m || c.epoch < m.fromEpoch || c.epoch > m.toEpoch)
      throw airgapError(
        'AIRGAP_INCONSISTENT',
        `Entry ${i + 1} is for a market or epoch the kit does not say it covers.`,
      );
    const key = `${c.assetId}/${c.epoch}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (nonces.has(c.nonce))
      throw airgapError('AIRGAP_INCONSISTENT', `Entry ${i + 1} repeats a nonce: two entries would be one.`);
    nonces.add(c.nonce);
    const digest = kitCancelDigest(kit, c);
    checkCarriedSignature(digest, c.signature, kit.signer, `The cancel-all of entry ${i + 1}`);
    digests.push(digest);
    yield;
  }
  for (const [key, n] of counts) {
    if (n !== kit.perEpoch)
      throw airgapError('AIRGAP_INCONSISTENT', `Market/epoch ${key} holds ${n} cancel-alls, not ${kit.perEpoch}.`);
  }
  if (kit.revocation) {
    const digest = revocationDigest(kit, kit.revocation.nonce);
    checkCarriedSignature(digest, kit.revocation.signature, kit.signer, 'The agent revocation');
    digests.push(digest);
    yield;
  }
  if (!sameAddress(kit.contracts.exchange, kit.domain.verifyingContract))
    throw airgapError('AIRGAP_INCONSISTENT', 'The kit’s exchange contract is not its domain’s verifying contract.');
  const fingerprint = fingerprintOver(kit, digests);
  if (fingerprint !== kit.fingerprint) {
    throw airgapError(
      'AIRGAP_FINGERPRINT_MISMATCH',
      `This kit was changed after it was made: its content gives the fingerprint ${fingerprint}, not the ${kit.fingerprint} it carries.`,
    );
  }
  return digests;
}

/** kitChecks in one go: every signature, then the fingerprint; the kit's digests. */
export function verifyEmergencyKit(kit: EmergencyKit): Hex[] {
  const steps = kitChecks(kit);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

// ---------------------------------------------------------------------------------------------
// Using a kit on the watch-only machine. "Used" is kept by main as the set of sent digests
// (lowercase); ENTRY_PROCESSED from the exchange means the entry was used.

export interface KitMarketCoverage {
  assetId: bigint;
  label: string;
  fromEpoch: bigint;
  toEpoch: bigint;
  until: string;
  total: number;
  used: number;
}

export interface KitCoverage {
  signer: Address;
  markets: KitMarketCoverage[];
  revocation: 'none' | 'unused' | 'used';
  /** The latest `until` of any market. */
  until: string;
}

export function kitCoverage(kit: EmergencyKit, used: ReadonlySet<string>): KitCoverage {
  const markets = kit.markets.map((m) => {
    const entries = kit.cancels.filter((c) => c.assetId === m.assetId);
    return { ...m, total: entries.length, used: entries.filter((c) => used.has(kitCancelDigest(kit, c))).length };
  });
  const revocation =
    kit.revocation === null ? 'none' : used.has(revocationDigest(kit, kit.revocation.nonce)) ? 'used' : 'unused';
  const until = kit.markets
    .map((m) => m.until)
    .sort()
    .at(-1)!;
  return { signer: kit.signer, markets, revocation, until };
}

export interface KitSend {
  digest: Hex;
  action: SignedAction<'cancels'> | SignedAction<'agentsRevoke'>;
}

function cancelSend(kit: EmergencyKit, entry: KitCancel): KitSend {
  const cancel = kitCancelAction(kit.signer, entry);
  const digest = kitCancelDigest(kit, entry);
  const request = { cancel, chainId: kit.domain.chainId, orderHash: digest, signature: entry.signature };
  const body = buildSignedRequest('cancels', request);
  return { digest, action: { kind: 'cancels', request, body, bodyText: JSON.stringify(body), orderHash: digest } };
}

export interface PanicPlan {
  sends: KitSend[];
  /** Markets the kit cannot help with now, each with a sentence. */
  gaps: { assetId: bigint; sentence: string }[];
}

/**
 * What the panic action sends: for each market of the kit, the first unused cancel-all of its
 * current epoch, and the revocation if asked and unused. Never an entry already used.
 */
export function panicPlan(
  kit: EmergencyKit,
  currentEpochs: ReadonlyMap<bigint, bigint>,
  used: ReadonlySet<string>,
  opts: { revokeAgent: boolean },
): PanicPlan {
  const sends: KitSend[] = [];
  const gaps: PanicPlan['gaps'] = [];
  for (const m of kit.markets) {
    const epoch = currentEpochs.get(m.assetId);
    if (epoch === undefined) {
      gaps.push({
        assetId: m.assetId,
        sentence: `The current epoch of ${m.label} is not known, so no cancel-all was chosen for it.`,
      });
      continue;
    }
    if (epoch < m.fromEpoch || epoch > m.toEpoch) {
      gaps.push({
        assetId: m.assetId,
        sentence: `The kit covers ${m.label} for epochs ${m.fromEpoch} to ${m.toEpoch}; the current epoch ${epoch} is outside them.`,
      });
      continue;
    }
    const entry = kit.cancels.find(
      (c) => c.assetId === m.assetId && c.epoch === epoch && !used.has(kitCancelDigest(kit, c)),
    );
    if (!entry) {
      gaps.push({
        assetId: m.assetId,
        sentence: `Every cancel-all the kit holds for ${m.label} epoch ${epoch} has been used.`,
      });
      continue;
    }
    sends.push(cancelSend(kit, entry));
  }
  if (opts.revokeAgent && kit.revocation) {
    const digest = revocationDigest(kit, kit.revocation.nonce);
    if (!used.has(digest)) {
      const revocation = kitRevocationAction(kit.signer, kit.revocation.nonce);
      const request = {
        revocation,
        chainId: kit.domain.chainId,
        orderHash: digest,
        signature: kit.revocation.signature,
      };
      const body = buildSignedRequest('agentsRevoke', request);
      sends.push({
        digest,
        action: { kind: 'agentsRevoke', request, body, bodyText: JSON.stringify(body), orderHash: digest },
      });
    }
  }
  return { sends, gaps };
}

// ---------------------------------------------------------------------------------------------
// JSON form.

export interface EmergencyKitJson {
  format: typeof KIT_FORMAT;
  id: string;
  createdAt: string;
  domain: DomainJson;
  contracts: AirgapContracts;
  signer: Address;
  perEpoch: number;
  markets: { assetId: string; label: string; fromEpoch: string; toEpoch: string; until: string }[];
  cancels: { assetId: string; epoch: string; nonce: string; signature: Hex }[];
  revocation: { nonce: string; signature: Hex } | null;
  fingerprint: string;
}

export function kitToJson(kit: EmergencyKit): EmergencyKitJson {
  return {
    format: KIT_FORMAT,
    id: kit.id,
    createdAt: kit.createdAt,
    domain: domainToJson(kit.domain),
    contracts: kit.contracts,
    signer: kit.signer,
    perEpoch: kit.perEpoch,
    markets: kit.markets.map((m) => ({
      assetId: m.assetId.toString(),
      label: m.label,
      fromEpoch: m.fromEpoch.toString(),
      toEpoch: m.toEpoch.toString(),
      until: m.until,
    })),
    cancels: kit.cancels.map((c) => ({
      assetId: c.assetId.toString(),
      epoch: c.epoch.toString(),
      nonce: c.nonce.toString(),
      signature: c.signature,
    })),
    revocation: kit.revocation ? { nonce: kit.revocation.nonce.toString(), signature: kit.revocation.signature } : null,
    fingerprint: kit.fingerprint,
  };
}

/** What a kit says about itself, read without its entries: enough to check it against a pin first. */
export interface KitHeader {
  readonly id: string;
  readonly domain: Readonly<ExchangeDomain>;
  readonly contracts: AirgapContracts;
  readonly signer: Address;
  readonly fingerprint: string;
}

// The kit's schema with its entries unread (their count still bounded): a few fields to check.
const kitHeaderJson = kitJson.extend({ cancels: z.array(z.unknown()).min(1).max(MAX_KIT_ENTRIES) });

/** Before any schema: a kit of too many entries is refused in one sentence, unread. */
function checkEntryCount(value: unknown): void {
  const cancels = (value as { cancels?: unknown }).cancels;
  if (Array.isArray(cancels) && cancels.length > MAX_KIT_ENTRIES)
    throw airgapError(
      'AIRGAP_INCONSISTENT',
      `This kit holds ${cancels.length} cancel-alls; a kit holds at most ${MAX_KIT_ENTRIES}, so it is not read.`,
    );
}

/** The kit's format, domain, contracts, signer and counts, in microseconds, before anything costly. */
export function readKitHeader(value: unknown): KitHeader {
  expectFormat(value, KIT_FORMAT);
  checkEntryCount(value);
  const json = parseWith(kitHeaderJson, value, 'emergency kit');
  return {
    id: json.id,
    domain: domainFromJson(json.domain),
    contracts: { exchange: json.contracts.exchange as Address, ledger: json.contracts.ledger as Address | null },
    signer: json.signer as Address,
    fingerprint: json.fingerprint,
  };
}

/**
 * Reads a kit's schema and what it says it covers, without checking its entries, signatures or
 * fingerprint: the kit is not to be trusted until kitChecks (or verifyEmergencyKit) has run over it.
 */
export function readEmergencyKit(value: unknown): EmergencyKit {
  expectFormat(value, KIT_FORMAT);
  checkEntryCount(value);
  const json = parseWith(kitJson, value, 'emergency kit');
  const domain: Readonly<ExchangeDomain> = domainFromJson(json.domain);
  const kit: EmergencyKit = {
    id: json.id,
    createdAt: json.createdAt,
    domain,
    contracts: { exchange: json.contracts.exchange as Address, ledger: json.contracts.ledger as Address | null },
    signer: json.signer as Address,
    perEpoch: json.perEpoch,
    markets: json.markets.map((m) => ({
      assetId: BigInt(m.assetId),
      label: m.label,
      fromEpoch: BigInt(m.fromEpoch),
      toEpoch: BigInt(m.toEpoch),
      until: m.until,
    })),
    cancels: json.cancels.map((c) => ({
      assetId: BigInt(c.assetId),
      epoch: BigInt(c.epoch),
      nonce: BigInt(c.nonce),
      signature: c.signature.toLowerCase() as Hex,
    })),
    revocation: json.revocation
      ? { nonce: BigInt(json.revocation.nonce), signature: json.revocation.signature.toLowerCase() as Hex }
      : null,
    fingerprint: json.fingerprint,
  };
  checkCoverage(kit);
  return kit;
}

/** Reads a kit: schema, coverage, every signature, then the fingerprint. */
export function parseEmergencyKit(value: unknown): EmergencyKit {
  const kit = readEmergencyKit(value);
  verifyEmergencyKit(kit);
  return kit;
}
