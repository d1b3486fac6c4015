// The QR transport through the app core's bridge, as the window calls it: a request shown by one
// core is scanned into another, which receives it (the inbox logs it) with the same fingerprint;
// the camera is wanted only while a camera scan is open, even with the vault locked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NonceRegistry, REQUEST_FORMAT, draftOrder, payloadToFileText } from '../../../client';
import type { BridgeOutcome, QrShowView, ScanProgress } from '../../../shared/bridge';
import { DigestSigner, makeExchangeDomain, type Address } from '../../../shared/protocol';
import { createTestCore, TEST_PASSWORD, type TestCore } from '../../../../test/support/test-core';

const MASTER_KEY = `0x${'33'.repeat(32)}` as const;
const MASTER = new DigestSigner(MASTER_KEY).address;
const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;

let shower: TestCore;
let scanner: TestCore;

beforeEach(async () => {
  shower = await createTestCore();
  scanner = await createTestCore();
});
afterEach(() => {
  shower.close();
  scanner.close();
});

async function ok<T>(t: TestCore, method: string, ...args: unknown[]): Promise<T> {
  const outcome: BridgeOutcome = await t.core.invoke(method, args);
  if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value as T;
}

describe('QR transport through the bridge', () => {
  it('shows on one core and receives on the other, with the camera wanted only while the scan is open', async () => {
    const request = await draftOrder(
      {
        signer: MASTER,
        domain: makeExchangeDomain({ chainId: 31337n, verifyingContract: EXCHANGE }),
        contracts: { exchange: EXCHANGE, ledger: null },
        nonces: new NonceRegistry(),
      },
      { assetId: 3n, epoch: 40n, side: 'sell', price: '41', size: '2' },
    );
    const shown = await ok<QrShowView>(shower, 'airgap.qrShow', {
      text: payloadToFileText({ format: REQUEST_FORMAT, request }),
    });
    expect(shown.envelope.fingerprint).toBe(request.fingerprint);
    const parts = await ok<string[]>(shower, 'airgap.qrParts', { showId: shown.showId, count: shown.parts });

    // The scanning core is the signing machine: a request is kept only where its signer's key is.
    await ok(scanner, 'lock.setPassword', { password: TEST_PASSWORD, passwordAgain: TEST_PASSWORD });
    await ok(scanner, 'keys.importPrivateKey', { privateKey: MASTER_KEY, label: 'cold' });
    expect(scanner.core.cameraWanted()).toBe(false);
    const scan = await ok<ScanProgress>(scanner, 'airgap.scanBegin', { accept: ['request'], camera: true });
    expect(scanner.core.cameraWanted()).toBe(true);
    expect(shower.core.cameraWanted()).toBe(false);
    let last = scan;
    for (const text of parts) last = await ok<ScanProgress>(scanner, 'airgap.scanPart', { scanId: scan.scanId, text });
    expect(last).toMatchObject({ state: 'complete', envelope: { kind: 'order', fingerprint: request.fingerprint } });
    expect(scanner.logText()).toContain('airgap.received');
    // A finished scan no longer wants the camera; a cancelled one is gone.
    expect(scanner.core.cameraWanted()).toBe(false);
    await ok(scanner, 'airgap.scanCancel', { scanId: scan.scanId });
    const gone = await scanner.core.invoke('airgap.scanPart', [{ scanId: scan.scanId, text: parts[0] }]);
    expect(gone).toMatchObject({ ok: false, error: { code: 'airgap.scan_closed' } });
    await ok(shower, 'airgap.qrHide', { showId: shown.showId });
    const hidden = await shower.core.invoke('airgap.qrParts', [{ showId: shown.showId, count: 1 }]);
    expect(hidden).toMatchObject({ ok: false, error: { code: 'airgap.show_closed' } });
  });

  it('refuses a tampered envelope with its sentence and shows nothing', async () => {
    const outcome = await shower.core.invoke('airgap.qrShow', [
      { text: '{"format":"exchange-terminal/unsigned-request@1"}' },
    ]);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toMatch(/^airgap\./);
      expect(outcome.error.message).toMatch(/^[A-Z].{15,}\.$/);
    }
  });
});
