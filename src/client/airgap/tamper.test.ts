// Any single changed character in a request, a response or a kit, as carried in a file or a QR
// payload, is refused with a code (a change of letter case in hex is the same value and is left out;
// so is a response's signedAt, which only says when it was signed).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestSigner, makeExchangeDomain, type Address } from '../../shared/protocol';
import { NonceRegistry, keySigner } from '../actions/signed-actions';
import { payloadFromBytes } from './envelope';
import { AirgapError } from './errors';
import { KIT_FORMAT, REQUEST_FORMAT, RESPONSE_FORMAT, type UnsignedRequest } from './formats';
import { buildEmergencyKit, kitToJson } from './kit';
import {
  draftApproveAgent,
  draftCancelReplace,
  draftOrder,
  draftWithdrawal,
  requestToJson,
  type DraftContext,
} from './request';
import { responseToJson, signUnsignedRequest, verifyResponse } from './response';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const AGENT = new DigestSigner(`0x${'33'.repeat(32)}`).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const LEDGER = '0x0000000000000000000000000000000000001ed9' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });
const NOW = new Date('2026-07-01T12:00:00.000Z');
const ctx = (): DraftContext => ({
  signer: MASTER.address,
  domain: DOMAIN,
  contracts: { exchange: EXCHANGE, ledger: LEDGER },
  nonces: new NonceRegistry(),
  now: () => NOW,
});

function outcome(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AirgapError) return error.code;
    throw error;
  }
  return 'accepted';
}

/** One printable character changed at one position, never a change of case only. */
const tamper = (text: string, skip: (pos: number) => boolean = () => false) =>
  fc
    .tuple(fc.nat({ max: text.length - 1 }), fc.integer({ min: 32, max: 126 }))
    .filter(([pos, ch]) => String.fromCharCode(ch).toLowerCase() !== text[pos]!.toLowerCase() && !skip(pos))
    .map(([pos, ch]) => text.slice(0, pos) + String.fromCharCode(ch) + text.slice(pos + 1));

const bytesOf = (s: string) => new TextEncoder().encode(s);

async function requests(): Promise<UnsignedRequest[]> {
  return [
    await draftOrder(ctx(), { assetId: 7n, epoch: 12n, side: 'buy', price: '62.5', size: '10' }),
    await draftCancelReplace(ctx(), {
      assetId: 7n,
      epoch: 12n,
      cancelOrderHash: `0x${'ab'.repeat(32)}`,
      side: 'sell',
      price: '40',
      size: '3',
    }),
    await draftWithdrawal(ctx(), { amount: '12.5', ledger: LEDGER }),
    await draftApproveAgent(ctx(), { agent: AGENT, approvalNonce: BigInt(NOW.getTime() / 1000 + 150) }),
  ];
}

describe('single-character tampering', () => {
  it('is refused in an unsigned request', async () => {
    for (const request of await requests()) {
      const text = JSON.stringify(requestToJson(request));
      fc.assert(
        fc.property(tamper(text), (changed) => {
          expect(outcome(() => payloadFromBytes(bytesOf(changed), [REQUEST_FORMAT]))).not.toBe('accepted');
        }),
        { numRuns: 150 },
      );
    }
  });

  it('is refused in a signed response checked against its request', async () => {
    for (const request of await requests()) {
      const text = JSON.stringify(responseToJson(await signUnsignedRequest(request, keySigner(MASTER), () => NOW)));
      const at = text.indexOf('"signedAt"');
      fc.assert(
        fc.property(
          tamper(text, (pos) => pos >= at && pos < text.indexOf('}', at)),
          (changed) => {
            const read = () => {
              const payload = payloadFromBytes(bytesOf(changed), [RESPONSE_FORMAT]);
              if (payload.format === RESPONSE_FORMAT) verifyResponse(request, payload.response);
            };
            expect(outcome(read)).not.toBe('accepted');
          },
        ),
        { numRuns: 150 },
      );
    }
  });

  it('is refused in an emergency kit', async () => {
    const kit = await buildEmergencyKit(
      { signer: keySigner(MASTER), domain: DOMAIN, nonces: new NonceRegistry() },
      {
        contracts: { exchange: EXCHANGE, ledger: LEDGER },
        markets: [{ assetId: 7n, label: 'BTC 5m', fromEpoch: 100n, toEpoch: 101n, until: '2026-07-01T12:10:00.000Z' }],
        perEpoch: 2,
        revokeAgent: true,
      },
    );
    const text = JSON.stringify(kitToJson(kit));
    fc.assert(
      fc.property(tamper(text), (changed) => {
        expect(outcome(() => payloadFromBytes(bytesOf(changed), [KIT_FORMAT]))).not.toBe('accepted');
      }),
      { numRuns: 300 },
    );
  });
});
