// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// @title LocalToken
/// @notice A mintable token of the local chains (the test dollar TUSD, the reward token TRWD).
///         Its owner (the emulator's DeFi operator) and the minters it names may mint any amount;
///         anyone may take up to FAUCET_LIMIT whole tokens per call from the faucet, the way a
///         testnet token hands out test funds.
contract LocalToken is ERC20 {
    address public immutable owner;
    mapping(address => bool) public minters;
    uint256 public constant FAUCET_LIMIT = 1_000_000;

    event MinterSet(address indexed minter, bool allowed);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {
        owner = msg.sender;
    }

    function setMinter(address minter, bool allowed) external {
        require(msg.sender == owner, "LocalToken: not the owner");
        minters[minter] = allowed;
        emit MinterSet(minter, allowed);
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner || minters[msg.sender], "LocalToken: not a minter");
        _mint(to, value);
    }

    /// @notice Test funds for anyone: at most FAUCET_LIMIT whole tokens a call.
    function faucet(address to, uint256 value) external {
        require(value <= FAUCET_LIMIT * 10 ** decimals, "LocalToken: above the faucet limit");
        _mint(to, value);
    }
}
