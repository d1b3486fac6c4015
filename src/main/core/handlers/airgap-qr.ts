/** airgap.qr* and airgap.scan*: QR transport sessions (core/airgap/qr-transport.ts) behind the bridge. */
import type { BridgeHandlers } from '../bridge-runtime';
import type { QrTransport } from '../airgap/qr-transport';

export type AirgapQrMethod =
  'airgap.qrShow' | 'airgap.qrParts' | 'airgap.qrHide' | 'airgap.scanBegin' | 'airgap.scanPart' | 'airgap.scanCancel';

export function airgapQrHandlers(qr: QrTransport): Pick<BridgeHandlers, AirgapQrMethod> {
  return {
    'airgap.qrShow': ({ text }) => qr.show(text),
    'airgap.qrParts': ({ showId, count }) => qr.parts(showId, count),
    'airgap.qrHide': ({ showId }) => {
      qr.hide(showId);
      return null;
    },
    'airgap.scanBegin': ({ accept, camera }) => qr.scanBegin(accept, camera),
    'airgap.scanPart': ({ scanId, text }) => qr.scanPart(scanId, text),
    'airgap.scanCancel': ({ scanId }) => {
      qr.scanCancel(scanId);
      return null;
    },
  };
}
