// 0x-prefixed hex; addresses are EIP-55 checksummed. Declared once, in shared/protocol.
import type { Address, Hex } from '../../shared/protocol/hex';

export type { Address, Hex };

// Declared with the local exchange (src/exchange/deployment.ts): the bots and practice mode use them too.
export type {
  FundedKey as DevnetKey,
  FundedAccount as DevnetAccount,
  ExchangeContracts as DevnetContracts,
} from '../../exchange/deployment';
