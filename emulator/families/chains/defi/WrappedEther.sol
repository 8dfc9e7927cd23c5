// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// @title WrappedEther
/// @notice WETH9's behaviour: ether sent in (deposit or a plain transfer) mints the same amount
///         of WETH; withdraw burns WETH and sends the ether back.
contract WrappedEther is ERC20 {
    event Deposit(address indexed to, uint256 value);
    event Withdrawal(address indexed from, uint256 value);

    constructor() ERC20("Wrapped Ether", "WETH", 18) {}

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        _mint(msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 value) external {
        _burn(msg.sender, value);
        emit Withdrawal(msg.sender, value);
        (bool ok,) = msg.sender.call{value: value}("");
        require(ok, "WETH: ether transfer failed");
    }
}
