// 0x-prefixed hex; addresses are EIP-55 checksummed. Declared once, in shared/protocol.
import type { Address, Hex } from '../../shared/protocol/hex';

export type { Address, Hex };

export interface DevnetKey {
  address: Address;
  privateKey: Hex;
}

export interface DevnetAccount extends DevnetKey {
  label: string;
}

/** Same keys as the protocol's chain configuration (docs/protocol/endpoints.md#chain-configuration). */
export interface DevnetContracts {
  exchange: Address;
  ledger: Address;
  depositLedger: Address;
  settlementToken: Address;
  permit2: Address;
}
