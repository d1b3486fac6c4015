// One envelope for files and QR payloads: each format reads back through the same checks, and a
// payload cut short or not ours is refused with a code.
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../shared/protocol';
import { NonceRegistry, keySigner } from '../actions/signed-actions';
import {
  payloadBytes,
  payloadFromBytes,
  payloadFromFileText,
  payloadToFileText,
  suggestedFileName,
  type AirgapPayload,
} from './envelope';
import { AirgapError } from './errors';
import { KIT_FORMAT, REQUEST_FORMAT, RESPONSE_FORMAT } from './formats';
import { buildEmergencyKit } from './kit';
import { draftOrder } from './request';
import { signUnsignedRequest } from './response';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const CONTRACTS = { exchange: EXCHANGE, ledger: null };

async function payloads(): Promise<AirgapPayload[]> {
  const request = await draftOrder(
    { signer: MASTER.address, domain: DOMAIN, contracts: CONTRACTS, nonces: new NonceRegistry() },
    { assetId: 1n, epoch: 2n, side: 'sell', price: '55', size: '2' },
  );
  const response = await signUnsignedRequest(request, keySigner(MASTER));
  const kit = await buildEmergencyKit(
    { signer: keySigner(MASTER), domain: DOMAIN, nonces: new NonceRegistry() },
    {
      contracts: CONTRACTS,
      markets: [{ assetId: 1n, label: 'BTC 5m', fromEpoch: 2n, toEpoch: 3n, until: '2026-07-01T00:00:00.000Z' }],
      perEpoch: 2,
      revokeAgent: true,
    },
  );
  return [
    { format: REQUEST_FORMAT, request },
    { format: RESPONSE_FORMAT, response },
    { format: KIT_FORMAT, kit },
  ];
}

const ALL = [REQUEST_FORMAT, RESPONSE_FORMAT, KIT_FORMAT] as const;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AirgapError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('air-gapped envelope', () => {
  it('reads each format back from bytes and from file text', async () => {
    for (const p of await payloads()) {
      expect(payloadFromBytes(payloadBytes(p), ALL)).toEqual(p);
      const text = payloadToFileText(p);
      expect(text.endsWith('}\n')).toBe(true);
      expect(payloadFromFileText(text, [p.format])).toEqual(p);
      expect(suggestedFileName(p)).toMatch(
        /^[a-z-]+-[A-Z2-7]{4}-[A-Z2-7]{4}\.json$|^request-order-[A-Z2-7]{4}-[A-Z2-7]{4}\.json$/,
      );
    }
  });

  it('refuses a payload cut short, one that is not JSON, and one of another format', async () => {
    const [request, response] = await payloads();
    const bytes = payloadBytes(request!);
    for (const n of [1, 10, bytes.length >> 1, bytes.length - 1])
      expect(code(() => payloadFromBytes(bytes.slice(0, n), ALL))).toBe('UR_TRUNCATED');
    expect(code(() => payloadFromBytes(new Uint8Array([0xff, 0xfe]), ALL))).toBe('AIRGAP_MALFORMED');
    expect(code(() => payloadFromFileText('hello', ALL))).toBe('AIRGAP_MALFORMED');
    expect(code(() => payloadFromFileText(payloadToFileText(response!), [REQUEST_FORMAT]))).toBe('AIRGAP_NOT_OURS');
    expect(code(() => payloadFromFileText(' '.repeat(2 * 1024 * 1024), ALL))).toBe('UR_OVERSIZE');
  });
});
