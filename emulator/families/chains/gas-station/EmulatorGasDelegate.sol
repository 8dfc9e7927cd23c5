// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title EmulatorGasDelegate
/// @notice The local gas station's EIP-7702 delegate. An EOA that delegates to this code can have
///         a batch of calls submitted on its behalf by anyone (the emulator's paymaster, which pays
///         the gas, or the EOA itself), provided the EOA signed the batch as EIP-712 typed data
///         `BatchExecution`. Each signature is good once (a sequential nonce kept in the EOA's own
///         storage) and, when a deadline is given, only until then. A failing call reverts the whole
///         batch with the callee's revert data, so the sender sees the callee's reason.
contract EmulatorGasDelegate {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant CALL_TYPEHASH = keccak256("Call(address to,uint256 value,bytes data)");
    bytes32 private constant BATCH_TYPEHASH =
        keccak256("BatchExecution(uint256 nonce,uint256 deadline,Call[] calls)Call(address to,uint256 value,bytes data)");
    /// A storage slot of its own (the EOA's storage is shared with whatever it delegated to before).
    bytes32 private constant NONCE_SLOT = keccak256("turnkey-emulator.gas-delegate.nonce");
    uint256 private constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    error InvalidNonce(uint256 expected, uint256 given);
    error Expired(uint256 deadline);
    error InvalidSignature();

    /// @notice The nonce the next signed batch must carry.
    function nonce() external view returns (uint256 n) {
        bytes32 slot = NONCE_SLOT;
        assembly {
            n := sload(slot)
        }
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("EmulatorGasDelegate"), keccak256("1"), block.chainid, address(this))
        );
    }

    function hashBatch(Call[] calldata calls, uint256 batchNonce, uint256 deadline) public view returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            hashes[i] = keccak256(abi.encode(CALL_TYPEHASH, calls[i].to, calls[i].value, keccak256(calls[i].data)));
        }
        bytes32 structHash =
            keccak256(abi.encode(BATCH_TYPEHASH, batchNonce, deadline, keccak256(abi.encodePacked(hashes))));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @notice Runs `calls` from this account, as signed by its key.
    function execute(Call[] calldata calls, uint256 batchNonce, uint256 deadline, bytes calldata signature)
        external
        payable
    {
        bytes32 slot = NONCE_SLOT;
        uint256 current;
        assembly {
            current := sload(slot)
        }
        if (batchNonce != current) revert InvalidNonce(current, batchNonce);
        if (deadline != 0 && block.timestamp > deadline) revert Expired(deadline);
        if (recover(hashBatch(calls, batchNonce, deadline), signature) != address(this)) revert InvalidSignature();
        assembly {
            sstore(slot, add(current, 1))
        }
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    function recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// A delegated account still receives plain transfers and safe token transfers.
    receive() external payable {}

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }
}
