// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "./IERC20.sol";

/// @title AccountLedger (contracts.ledger)
/// @notice Holds the exchange's settled funds. Swept deposits arrive here from the DepositLedger;
///         the operator (the exchange service's key) pays signed withdrawals out, each id exactly once.
contract AccountLedger {
    IERC20 public immutable SETTLEMENT_TOKEN;
    address public immutable OPERATOR;

    /// withdrawalId => already paid on chain.
    mapping(bytes32 => bool) public paid;

    event WithdrawalPaid(bytes32 indexed withdrawalId, address indexed receiver, uint256 amount);

    error NotOperator(address caller);
    error AlreadyPaid(bytes32 withdrawalId);
    error InvalidReceiver(address receiver);
    error ZeroAmount();
    error TransferFailed();

    constructor(IERC20 settlementToken, address operator) {
        SETTLEMENT_TOKEN = settlementToken;
        OPERATOR = operator;
    }

    function payout(address receiver, uint256 amount, bytes32 withdrawalId) external {
        if (msg.sender != OPERATOR) revert NotOperator(msg.sender);
        if (paid[withdrawalId]) revert AlreadyPaid(withdrawalId);
        if (receiver == address(0)) revert InvalidReceiver(receiver);
        if (amount == 0) revert ZeroAmount();
        paid[withdrawalId] = true; // effects before the external call
        if (!SETTLEMENT_TOKEN.transfer(receiver, amount)) revert TransferFailed();
        emit WithdrawalPaid(withdrawalId, receiver, amount);
    }
}
