// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "./IERC20.sol";
import {Permit2} from "./Permit2.sol";

/// @title DepositLedger
/// @notice Users queue deposits here (approve + deposit, or a Permit2 signature + depositWithPermit).
///         Each deposit gets a sequential index, starting at 1, announced by DepositQueued. After
///         `minBlockWait` blocks the operator sweeps deposits, in index order, to the AccountLedger.
/// @dev Cursor meaning: indexes 1..processedDepositIndex are swept; processedDepositIndex+1 ..
///      nextPendingDepositId-1 are pending; nextPendingDepositId is the index the next deposit gets.
contract DepositLedger {
    struct QueuedDeposit {
        address user;
        uint64 blockNumber;
        uint256 amount;
    }

    IERC20 public immutable SETTLEMENT_TOKEN;
    address public immutable ACCOUNT_LEDGER;
    Permit2 public immutable PERMIT2;
    address public immutable OPERATOR;
    uint256 public immutable minBlockWait;

    /// Tokens queued and not yet swept.
    uint256 public pendingBalance;
    /// Tokens swept to the AccountLedger so far (cumulative).
    uint256 public processedBalance;
    uint128 public nextPendingDepositId = 1;
    uint128 public processedDepositIndex;

    mapping(uint256 => QueuedDeposit) public deposits;

    event DepositQueued(uint256 indexed index, address indexed user, uint256 amount);
    event DepositProcessed(uint256 indexed index, address indexed user, uint256 amount);

    error NotOperator(address caller);
    error ZeroAmount();
    /// Deposits must fit the exchange's uint64 amount fields.
    error AmountTooLarge(uint256 amount);
    error NothingToProcess();
    error TransferFailed();

    constructor(IERC20 settlementToken, address accountLedger, Permit2 permit2, address operator, uint256 minBlockWait_) {
        SETTLEMENT_TOKEN = settlementToken;
        ACCOUNT_LEDGER = accountLedger;
        PERMIT2 = permit2;
        OPERATOR = operator;
        minBlockWait = minBlockWait_;
    }

    function pendingDepositCount() external view returns (uint128) {
        return nextPendingDepositId - 1 - processedDepositIndex;
    }

    function canProcessNext() public view returns (bool) {
        return _readyAfter(processedDepositIndex);
    }

    function deposit(uint256 amount) external returns (uint256 index) {
        _checkAmount(amount);
        if (!SETTLEMENT_TOKEN.transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        return _queue(msg.sender, amount);
    }

    /// @notice Pulls `amount` from `owner` through Permit2. Anyone may submit the owner's signed permit;
    ///         the deposit is always credited to `owner`.
    function depositWithPermit(uint256 amount, uint256 nonce, address owner, uint256 deadline, bytes calldata signature)
        external
        returns (uint256 index)
    {
        _checkAmount(amount);
        PERMIT2.permitTransferFrom(
            Permit2.PermitTransferFrom({
                permitted: Permit2.TokenPermissions({token: address(SETTLEMENT_TOKEN), amount: amount}),
                nonce: nonce,
                deadline: deadline
            }),
            Permit2.SignatureTransferDetails({to: address(this), requestedAmount: amount}),
            owner,
            signature
        );
        return _queue(owner, amount);
    }

    function processNext() external returns (uint256 processed) {
        if (!canProcessNext()) revert NothingToProcess();
        return _processUpTo(uint256(processedDepositIndex) + 1);
    }

    /// @notice Sweeps pending deposits in order up to and including index `upTo`, stopping early at the
    ///         first one younger than `minBlockWait` blocks. Returns how many were swept (may be 0).
    function processUpTo(uint256 upTo) external returns (uint256 processed) {
        return _processUpTo(upTo);
    }

    function _processUpTo(uint256 upTo) private returns (uint256 processed) {
        if (msg.sender != OPERATOR) revert NotOperator(msg.sender);
        uint256 index = processedDepositIndex;
        uint256 total;
        while (index < upTo && _readyAfter(index)) {
            ++index;
            QueuedDeposit storage d = deposits[index];
            total += d.amount;
            emit DepositProcessed(index, d.user, d.amount);
        }
        processed = index - processedDepositIndex;
        if (processed == 0) return 0;
        processedDepositIndex = uint128(index);
        pendingBalance -= total;
        processedBalance += total;
        if (!SETTLEMENT_TOKEN.transfer(ACCOUNT_LEDGER, total)) revert TransferFailed();
    }

    /// Whether the deposit after `lastProcessed` exists and is at least minBlockWait blocks old.
    function _readyAfter(uint256 lastProcessed) private view returns (bool) {
        uint256 next = lastProcessed + 1;
        if (next >= nextPendingDepositId) return false;
        return block.number >= uint256(deposits[next].blockNumber) + minBlockWait;
    }

    function _checkAmount(uint256 amount) private pure {
        if (amount == 0) revert ZeroAmount();
        if (amount > type(uint64).max) revert AmountTooLarge(amount);
    }

    function _queue(address user, uint256 amount) private returns (uint256 index) {
        index = nextPendingDepositId;
        nextPendingDepositId = uint128(index + 1);
        deposits[index] = QueuedDeposit({user: user, blockNumber: uint64(block.number), amount: amount});
        pendingBalance += amount;
        emit DepositQueued(index, user, amount);
    }
}
