// Every fixture vector reproduced byte for byte (docs/protocol/signing.md#test-vectors).
import { describe, expect, it } from 'vitest';
import { actionFromMessage, domainOf, vectors } from '../../../test/protocol/vector-helpers';
import {
  DOMAIN_TYPEHASH,
  DOMAIN_TYPE_STRING,
  DigestSigner,
  PERMIT_TRANSFER_FROM_TYPE_STRING,
  PRIMARY_TYPES,
  REQUEST_KINDS,
  buildSignedRequest,
  bytesToHex,
  domainSeparator,
  hashAction,
  hashPermitTransferFrom,
  keccakHex,
  keccakUtf8,
  hexToBytes,
  parseSignedRequest,
  permit2DomainSeparator,
  permitTransferFromStructHash,
  recoverDigestSigner,
  signDigest,
  structHash,
  typeString,
  typehash,
  type PrimaryType,
  type RequestKind,
} from './index';

// The typehash table of docs/protocol/signing.md#type-strings (independent of the fixture file).
const PROTOCOL_TYPEHASHES: Record<PrimaryType, string> = {
  FillOrder: '0x6afa75b803bab83c83de4a0eb68f7f370f6c34dfba99bc6cf3641a68b0063722',
  CancelOrder: '0x78416de2dac6e7b7b091bc73819e04255c56a88b383d86984b67db448bf78ed8',
  CancelReplaceOrder: '0x9983d32f1f0e9d5c46c262701bdc3c56347a7b711f7bda019fd6a3f383987e66',
  ClaimOrder: '0x27243dbad91cfef1b914e6cb12abf38c22e4701c48e0a732b37c18340bd73281',
  WithdrawalOrder: '0x58f836cd9647d9a7fce5f16c74c448f3761cbce35da1acc97ac1fbbb66140211',
  DepositOrder: '0x54ff42a9d968506127459f49ca2c2c90f552fbbbaf15f01acdb33b789165f25f',
  ApproveAgentOrder: '0x6204708d1b4d17a2a2ea2f0c5597e39a57fd63830c6aca97bfbc7f590d9f3c54',
  AgentApproval: '0x99389b73ee567cbca5388c2881d6935fc01e9af939c31d3e1d55f6fdc7e50383',
  RevokeAgentOrder: '0x38a193786aae726f614eb0c87fa12991dbbf5ba6bf247597768e4c073df6eb80',
  ResolutionOrder: '0x318c54778112c3498d0b355a7a1d5e973179332bfa26cc728005b8227b5861a1',
  PauseOrder: '0x1bba765e94569d9a37a3f464ab832680ba67c07d8b7c02dfa3770a88739cbcea',
  InvalidateOrder: '0x81ffb7fe4d753d397396c9499e14762254f947947e9b661142970dd553a85694',
  DepositSweepOrder: '0x2301ed56451b23a5f2166f04055c7ee4a7e8e7ac03e42d4eaf62f3728838426d',
};

const KIND_BY_PATH = Object.fromEntries(Object.entries(REQUEST_KINDS).map(([k, v]) => [v.path, k as RequestKind]));

describe('type strings and typehashes', () => {
  it.each(PRIMARY_TYPES)('%s matches docs/protocol/signing.md#type-strings and the fixture', (p) => {
    expect(typehash(p)).toBe(PROTOCOL_TYPEHASHES[p]);
    const fixture = vectors.typehashes[p];
    expect(typeString(p)).toBe(fixture.typeString);
    expect(typehash(p)).toBe(fixture.typehash);
  });

  it('domain type string and typehash', () => {
    expect(DOMAIN_TYPE_STRING).toBe(vectors.domainTypeString);
    expect(bytesToHex(DOMAIN_TYPEHASH)).toBe(vectors.domainTypehash);
  });

  it.each(vectors.domains.map((d) => [d.domain.chainId, d] as const))('domain separator on chain %s', (_c, d) => {
    expect(domainSeparator(domainOf(d.domain))).toBe(d.domainSeparator);
  });
});

describe('EIP-712 vectors', () => {
  expect(vectors.eip712.length).toBe(vectors.counts.eip712);

  it.each(vectors.eip712.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const p = v.primaryType as PrimaryType;
    const action = actionFromMessage(p, v.message);
    const domain = domainOf(v.domain);
    expect(v.typeString).toBe(typeString(p));
    expect(typehash(p)).toBe(v.typehash);
    expect(structHash(p, action)).toBe(v.structHash);
    expect(domainSeparator(domain)).toBe(v.domainSeparator);
    expect(hashAction(p, action, domain)).toBe(v.digest);
    expect(signDigest(v.digest as `0x${string}`, v.privateKey as `0x${string}`)).toBe(v.signature);
    expect(new DigestSigner(v.privateKey as `0x${string}`).sign(v.digest as `0x${string}`)).toBe(v.signature);
    expect(recoverDigestSigner(v.digest as `0x${string}`, v.signature as `0x${string}`)).toBe(v.signerAddress);

    // Hashed-bytes fields: the fixture's keccak of the raw bytes.
    if ('hashedFields' in v && v.hashedFields) {
      for (const [key, h] of Object.entries(v.hashedFields as unknown as Record<string, { keccak256: string }>)) {
        const raw = (v.message as unknown as Record<string, string>)[key]!;
        expect(keccakHex(hexToBytes(raw))).toBe(h.keccak256);
        expect((v as unknown as { eip712Message: Record<string, string> }).eip712Message[key]).toBe(h.keccak256);
      }
    }
  });

  const withRequests = vectors.eip712.filter((v) => 'request' in v && v.request);
  it('has request bodies for every routed type', () => {
    expect(withRequests.length).toBeGreaterThanOrEqual(25);
  });

  it.each(withRequests.map((v) => [v.name, v] as const))(
    'request body of %s parses and re-serialises identically',
    (_n, v) => {
      const req = (v as { request: { path: string; body: unknown } }).request;
      const kind = KIND_BY_PATH[req.path];
      expect(kind).toBeDefined();
      const parsed = parseSignedRequest(kind!, req.body);
      expect(JSON.stringify(buildSignedRequest(kind!, parsed))).toBe(JSON.stringify(req.body));
      expect(parsed.orderHash).toBe(v.digest);
      expect(parsed.signature).toBe(v.signature);
      expect(parsed.chainId).toBe(BigInt(v.domain.chainId));
    },
  );

  it('cancel-replace bodies embed the replacement vector digest and signature', () => {
    for (const v of vectors.eip712.filter((x) => x.primaryType === 'CancelReplaceOrder')) {
      const rep = vectors.eip712.find((x) => x.name === (v as { replacementVector: string }).replacementVector)!;
      const parsed = parseSignedRequest('cancelReplace', (v as { request: { body: unknown } }).request.body);
      const domain = domainOf(v.domain);
      expect(hashAction('FillOrder', parsed.replacement, domain)).toBe(rep.digest);
      expect(parsed.replacementOrderHash).toBe(rep.digest);
      expect(parsed.replacementSignature).toBe(rep.signature);
      expect(parsed.cancelReplace.replacementOrderHash).toBe(rep.digest);
    }
  });

  it('approve-agent bodies carry the inner AgentApproval signature as raw bytes', () => {
    for (const v of vectors.eip712.filter((x) => x.primaryType === 'ApproveAgentOrder')) {
      const inner = vectors.eip712.find((x) => x.name === (v as { agentApprovalVector: string }).agentApprovalVector)!;
      const parsed = parseSignedRequest('agentsApprove', (v as { request: { body: unknown } }).request.body);
      expect(parsed.approval.approvalSignature).toBe(inner.signature);
      expect(recoverDigestSigner(inner.digest as `0x${string}`, parsed.approval.approvalSignature).toLowerCase()).toBe(
        parsed.approval.signer.toLowerCase(),
      );
    }
  });
});

describe('Permit2 vectors (docs/protocol/deposits.md#permit2-deposit)', () => {
  it.each(vectors.permit2.map((v) => [v.name, v] as const))('%s', (_n, v) => {
    expect(v.typeString).toBe(PERMIT_TRANSFER_FROM_TYPE_STRING);
    expect(bytesToHex(keccakUtf8(v.typeString))).toBe(v.typehash);
    const domain = {
      name: v.domain.name,
      chainId: BigInt(v.domain.chainId),
      verifyingContract: v.domain.verifyingContract as `0x${string}`,
    };
    const message = {
      permitted: { token: v.message.permitted.token as `0x${string}`, amount: BigInt(v.message.permitted.amount) },
      spender: v.message.spender as `0x${string}`,
      nonce: BigInt(v.message.nonce),
      deadline: BigInt(v.message.deadline),
    };
    expect(permit2DomainSeparator(domain)).toBe(v.domainSeparator);
    expect(permitTransferFromStructHash(message)).toBe(v.structHash);
    const digest = hashPermitTransferFrom(message, domain);
    expect(digest).toBe(v.digest);
    expect(signDigest(digest, v.privateKey as `0x${string}`)).toBe(v.signature);
    expect(recoverDigestSigner(digest, v.signature as `0x${string}`)).toBe(v.signerAddress);
  });
});
