// The shapes a local exchange deployment is described by: the keys of funded accounts and the
// contract addresses its EIP-712 domain and chain configuration name. Types only, declared here so the
// bots and practice mode need nothing of the chain tooling (src/devnet/chain re-exports them).
import type { Address, Hex } from '../shared/protocol/hex';

export interface FundedKey {
  address: Address;
  privateKey: Hex;
}

export interface FundedAccount extends FundedKey {
  label: string;
}

/** Same keys as the protocol's chain configuration (docs/protocol/endpoints.md#chain-configuration). */
export interface ExchangeContracts {
  exchange: Address;
  ledger: Address;
  depositLedger: Address;
  settlementToken: Address;
  permit2: Address;
}
