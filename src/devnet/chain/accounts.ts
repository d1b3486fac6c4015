import { HDNodeWallet, Mnemonic, getCreateAddress } from 'ethers';
import type { Address, DevnetAccount, DevnetContracts, DevnetKey, Hex } from './types';

/**
 * The devnet's fixed mnemonic (BIP-39 of keccak256("exchange-terminal devnet v1")[0..16]).
 * Public on purpose: DEVNET ONLY, never fund these keys on a real chain.
 */
export const DEVNET_MNEMONIC = 'craft green club master uniform brief venue despair cushion perfect rebel spare';

const DEMO_LABELS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

export function deriveKey(mnemonic: string, index: number): DevnetKey {
  const wallet = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), `m/44'/60'/0'/0/${index}`);
  return { address: wallet.address as Address, privateKey: wallet.privateKey as Hex };
}

/**
 * HD index 0 is the operator: it deploys the contracts and is the exchange service's key.
 * Demo account i (0-based) is HD index i + 1.
 */
export function deriveDevnetKeys(mnemonic: string, count: number): { operator: DevnetKey; accounts: DevnetAccount[] } {
  const accounts = Array.from({ length: count }, (_, i) => ({
    ...deriveKey(mnemonic, i + 1),
    label: DEMO_LABELS[i] ?? `demo-${i + 1}`,
  }));
  return { operator: deriveKey(mnemonic, 0), accounts };
}

/** Deployment order; each contract's address is the operator's CREATE address at that nonce. */
export const DEPLOY_ORDER = [
  'settlementToken',
  'permit2',
  'ledger',
  'depositLedger',
  'exchange',
] as const satisfies readonly (keyof DevnetContracts)[];

/** The addresses startChain deploys to, computed without a chain (they depend only on the operator key). */
export function predictDevnetContracts(operator: Address): DevnetContracts {
  const entries = DEPLOY_ORDER.map((key, nonce) => [key, getCreateAddress({ from: operator, nonce }) as Address]);
  return Object.fromEntries(entries) as DevnetContracts;
}
