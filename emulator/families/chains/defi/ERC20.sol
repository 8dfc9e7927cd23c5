// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ERC20
/// @notice The ERC-20 every local DeFi contract builds on: balances, allowances (an allowance of
///         type(uint256).max is never spent down), and one `_update` through which every mint,
///         burn and transfer passes, so a token can act on balance changes (EarnWrapper's rewards).
abstract contract ERC20 {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function transfer(address to, uint256 value) public virtual returns (bool) {
        _update(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) public virtual returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) public virtual returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _update(from, to, value);
        return true;
    }

    function _spendAllowance(address owner, address spender, uint256 value) internal {
        uint256 allowed = allowance[owner][spender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[owner][spender] = allowed - value;
        }
    }

    function _mint(address to, uint256 value) internal {
        _update(address(0), to, value);
    }

    function _burn(address from, uint256 value) internal {
        _update(from, address(0), value);
    }

    /// Moves `value` from `from` to `to`; address(0) as `from` mints, as `to` burns.
    function _update(address from, address to, uint256 value) internal virtual {
        if (from == address(0)) {
            totalSupply += value;
        } else {
            uint256 balance = balanceOf[from];
            require(balance >= value, "ERC20: transfer amount exceeds balance");
            balanceOf[from] = balance - value;
        }
        if (to == address(0)) {
            totalSupply -= value;
        } else {
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }
}

/// The ERC-20 calls the vaults and the pool make on the tokens they hold.
interface IERC20 {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}
