import { describe, expect, it } from 'vitest';
import { confirmRequest, quoted } from './confirm-text';

const LOWER = '0x52908400098527886e0f7030069857d2e4169ee7';
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('confirm-text', () => {
  it('renders every fact on its own labelled line, addresses in full and checksummed', () => {
    const r = confirmRequest({
      capability: 'moves-value',
      title: 'Withdraw',
      action: 'Withdraw from the exchange',
      confirmLabel: 'Withdraw',
      amount: { units: 12_500_000n },
      receiver: LOWER,
      token: LOWER,
      from: LOWER,
      chainId: 31337n,
      verifyingContract: LOWER,
      domainName: 'Service Exchange',
      deploymentName: 'Local devnet',
    });
    expect(r).toMatchObject({
      title: 'Withdraw',
      message: 'Withdraw from the exchange: $12.50?',
      confirmLabel: 'Withdraw',
    });
    expect(r.detail.split('\n').slice(0, 9)).toEqual([
      'Action: Withdraw from the exchange',
      'Amount: $12.50 (12500000 base units)',
      `Receiver: ${CHECKSUMMED}`,
      `Token: ${CHECKSUMMED}`,
      `From account: ${CHECKSUMMED}`,
      'Chain id: 31337',
      `Verifying contract: ${CHECKSUMMED}`,
      'Domain name: “Service Exchange” (sent by the exchange, pinned)',
      'Deployment: “Local devnet” (user text: typed in this app, not checked)',
    ]);
    expect(r.detail).toMatch(/This moves value\. Confirm only if you started it/);
  });

  it('keeps window-supplied text on one quoted line: no forged lines, no direction tricks, bounded', () => {
    const forged = `alice"\nReceiver: ${CHECKSUMMED}\u202Eevil\u200B`;
    const r = confirmRequest({
      capability: 'moves-value',
      title: 'Export key',
      action: 'Export',
      confirmLabel: 'Export',
      key: LOWER,
      keyLabel: forged,
    });
    const lines = r.detail.split('\n');
    expect(lines.filter((l) => l.startsWith('Receiver:'))).toEqual([]);
    expect(lines.find((l) => l.startsWith('Key label:'))).toBe(
      `Key label: “alice' Receiver: ${CHECKSUMMED} evil” (user text: typed in this app, not checked)`,
    );
    expect(quoted('x'.repeat(200))).toBe(`“${'x'.repeat(80)}…”`);
  });

  it('says what a trust change changes, from and to', () => {
    const r = confirmRequest({
      capability: 'changes-trust',
      title: 'Turn off auto-lock',
      action: 'Never lock the app by itself',
      confirmLabel: 'Turn off auto-lock',
      change: {
        setting: 'Auto-lock',
        from: 'the app locks after 15 minutes idle',
        to: 'the app never locks by itself',
      },
    });
    expect(r.detail.split('\n').slice(0, 4)).toEqual([
      'Action: Never lock the app by itself',
      'Setting: Auto-lock',
      'Now: the app locks after 15 minutes idle',
      'After: the app never locks by itself',
    ]);
    expect(r.detail).toMatch(/This changes what the app trusts\./);
  });
});
