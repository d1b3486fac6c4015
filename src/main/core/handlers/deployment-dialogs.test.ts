import { describe, expect, it } from 'vitest';
import { toChecksumAddress } from '../../../shared/protocol';
import { changedPinRequest, contactRequest, firstPinRequest } from './deployment-dialogs';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
/** As the dialog shows it: checksummed. */
const C = (n: number): string => toChecksumAddress(A(n));
const FACTS = {
  chainId: '8453',
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  domainName: 'Service Exchange',
  spenders: { depositLedger: A(0xd1), settlementToken: A(0x70), permit2: A(0x22) },
};
const DRAFT = {
  name: 'My "exchange"\u202e',
  httpUrl: 'https://api.example.com/v1',
  marketWsUrl: 'wss://api.example.com/ws/',
  oracleWsUrl: 'wss://api.example.com/oracle-ws/',
  rpcUrl: 'https://rpc.example.com',
  chainId: '8453',
};

describe('deployment dialogs', () => {
  it("asks before contact, naming every host and marking the name as the user's text", () => {
    const r = contactRequest(DRAFT, null);
    expect(r.message).toBe(
      'Let the app contact https://api.example.com, wss://api.example.com, https://rpc.example.com for chain 8453?',
    );
    // Quotes and direction characters of user text cannot forge a line or pass for the app's words.
    expect(r.detail).toContain("Deployment: “My 'exchange'” (user text: typed in this app, not checked)");
    expect(r.detail).toContain('Nothing is saved yet.');
  });

  it('shows every fact to pin, addresses checksummed, before trust on first use', () => {
    const r = firstPinRequest('Mine', 'api.example.com', FACTS);
    expect(r.detail.split('\n').slice(0, 9)).toEqual([
      'Action: Pin the signing domain and token contracts of a deployment (first use)',
      'Deployment: “Mine” (user text: typed in this app, not checked)',
      'Host: api.example.com',
      'Chain id: 8453',
      'Verifying contract (exchange): 0x5FbDB2315678afecb367f032d93F642f64180aa3',
      'Domain name: “Service Exchange” (sent by the exchange)',
      `Deposit ledger (receives deposits): ${C(0xd1)}`,
      `Settlement token (approved for deposits): ${C(0x70)}`,
      `Permit2 (spends the token in permit deposits): ${C(0x22)}`,
    ]);
  });

  it('shows a changed pin old against new, line by line', () => {
    const observed = { ...FACTS, spenders: { ...FACTS.spenders, permit2: A(0x99) } };
    const r = changedPinRequest('Mine', FACTS, observed);
    expect(r.detail).toContain('Chain id: 8453 (unchanged)');
    expect(r.detail).toContain(`Permit2 (spends the token in permit deposits): ${C(0x99)}\n  was ${C(0x22)}`);
    const legacy = changedPinRequest('Mine', { ...FACTS, spenders: undefined }, FACTS);
    expect(legacy.detail).toContain(`Deposit ledger (receives deposits): ${C(0xd1)}\n  was none published`);
  });
});
