/**
 * The practice bots' keys and the contract addresses the client library is told. The keys derive from
 * fixed labels, so after a restart each bot finds its own orders, positions and play money in the
 * journal. They are public and worthless: practice signatures verify under the practice domain only.
 */
import type { DevnetAccount, DevnetContracts } from '../exchange/bots';
import { bytesToHex, DigestSigner, keccakUtf8, ZERO_ADDRESS, type Address } from '../shared/protocol';
import { PRACTICE_LEDGER, PRACTICE_VERIFYING_CONTRACT } from '../shared/practice';

export function practiceBotAccounts(count: number): DevnetAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const label = `practice-bot${i + 1}`;
    const privateKey = bytesToHex(keccakUtf8(`exchange-terminal/practice/bot/${i + 1}`));
    return { label, address: new DigestSigner(privateKey).address, privateKey };
  });
}

/**
 * Practice has no chain: only the exchange (the EIP-712 verifying contract) and the account ledger
 * (a withdrawal's `ledger`) mean anything. The deposit contracts are never called (no deposits: play
 * money is credited in-process), so they are the zero address.
 */
export function practiceContracts(): DevnetContracts {
  const none = ZERO_ADDRESS as Address;
  return {
    exchange: PRACTICE_VERIFYING_CONTRACT,
    ledger: PRACTICE_LEDGER,
    depositLedger: none,
    settlementToken: none,
    permit2: none,
  };
}
