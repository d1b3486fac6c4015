// Human-readable ABI fragments of the on-chain contracts the deposit client touches
// (docs/protocol/deposits.md#contracts).

export const DEPOSIT_LEDGER_ABI = [
  'event DepositQueued(uint256 indexed index, address indexed user, uint256 amount)',
  'function SETTLEMENT_TOKEN() view returns (address)',
  'function ACCOUNT_LEDGER() view returns (address)',
  'function PERMIT2() view returns (address)',
  'function pendingBalance() view returns (uint256)',
  'function processedBalance() view returns (uint256)',
  'function pendingDepositCount() view returns (uint128)',
  'function nextPendingDepositId() view returns (uint128)',
  'function processedDepositIndex() view returns (uint128)',
  'function minBlockWait() view returns (uint256)',
  'function canProcessNext() view returns (bool)',
  'function deposit(uint256 amount)',
  'function depositWithPermit(uint256 amount, uint256 nonce, address owner, uint256 deadline, bytes signature)',
] as const;

export const ERC20_ABI = [
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
] as const;

/**
 * Custom errors a deposit can revert with: our devnet contracts, canonical Uniswap Permit2, and
 * ERC-6093 tokens. Used only to decode revert data into DepositError codes.
 */
export const DEPOSIT_ERRORS_ABI = [
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidSignature()',
  'error InvalidSigner()',
  'error InvalidSignatureLength()',
  'error InvalidContractSignature()',
  'error InvalidNonce()',
  'error InvalidAmount(uint256 maxAmount)',
  'error TransferFailed()',
  'error ZeroAmount()',
  'error AmountTooLarge(uint256 amount)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidReceiver(address receiver)',
] as const;
