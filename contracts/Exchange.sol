// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Exchange (devnet marker)
/// @notice Gives `contracts.exchange`, the EIP-712 verifyingContract of every signed action, a real
///         deployed address. Matching and settlement happen off chain in the exchange service.
///         Exposes its EIP-712 domain through EIP-5267 so tools can discover it.
contract Exchange {
    string private _name;
    address public immutable ACCOUNT_LEDGER;
    address public immutable DEPOSIT_LEDGER;

    constructor(string memory domainName, address accountLedger, address depositLedger) {
        _name = domainName;
        ACCOUNT_LEDGER = accountLedger;
        DEPOSIT_LEDGER = depositLedger;
    }

    /// EIP-5267: fields 0x0f = name, version, chainId, verifyingContract.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", _name, "2", block.chainid, address(this), bytes32(0), new uint256[](0));
    }
}
