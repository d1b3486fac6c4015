// The whole optical path without a camera: an unsigned request becomes UR parts, each part a QR
// code drawn to pixels the way the window shows it, read back from those pixels and assembled into
// the same request on the other side; the signed response comes back the same way.
import { describe, expect, it } from 'vitest';
import {
  FORMAT_OF_UR_TYPE,
  NonceRegistry,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  UR_TYPES,
  UrAssembler,
  UrPartStream,
  draftWithdrawal,
  keySigner,
  payloadBytes,
  payloadFromBytes,
  signUnsignedRequest,
  toSignedAction,
  type AirgapPayload,
  type UrType,
} from '../../src/client';
import { qrMatrix, qrRgba, readQr } from '../../src/renderer/lib/qr/qr-code';
import { DigestSigner, makeExchangeDomain, type Address } from '../../src/shared/protocol';

const MASTER = new DigestSigner(`0x${'11'.repeat(32)}`);
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
const LEDGER = '0x0000000000000000000000000000000000001ed9' as Address;
const DOMAIN = makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE });

/** Shows frames until the reader has the payload; returns it and how many frames it took. */
function showAndScan(type: UrType, payload: AirgapPayload): { bytes: Uint8Array; frames: number } {
  const stream = new UrPartStream(type, payloadBytes(payload), { fragmentBytes: 120 });
  const reader = new UrAssembler([type]);
  for (let frames = 1; frames <= stream.seqLength * 3; frames++) {
    const text = readQr(qrRgba(qrMatrix(stream.nextPart()), { scale: 2 }));
    expect(text).not.toBeNull();
    const progress = reader.receive(text!);
    if (progress.state === 'complete') return { bytes: progress.bytes, frames };
  }
  throw new Error('the payload never completed');
}

describe('air-gapped round trip through QR pixels', () => {
  it('carries a withdrawal request to the signer and its response back', async () => {
    const request = await draftWithdrawal(
      {
        signer: MASTER.address,
        domain: DOMAIN,
        contracts: { exchange: EXCHANGE, ledger: LEDGER },
        nonces: new NonceRegistry(),
      },
      { amount: '25', ledger: LEDGER },
    );
    const there = showAndScan(UR_TYPES.request, { format: REQUEST_FORMAT, request });
    const read = payloadFromBytes(there.bytes, [FORMAT_OF_UR_TYPE[UR_TYPES.request]]);
    expect(read).toEqual({ format: REQUEST_FORMAT, request });
    if (read.format !== REQUEST_FORMAT) return;
    const response = await signUnsignedRequest(read.request, keySigner(MASTER));
    const back = showAndScan(UR_TYPES.response, { format: RESPONSE_FORMAT, response });
    const answer = payloadFromBytes(back.bytes, [RESPONSE_FORMAT]);
    if (answer.format !== RESPONSE_FORMAT) throw new Error('not a response');
    const signed = toSignedAction(request, answer.response);
    expect(signed.kind).toBe('withdrawals');
    expect(there.frames).toBeGreaterThan(1);
  });
});
