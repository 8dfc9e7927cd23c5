// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, IERC20} from "./ERC20.sol";

/// @title ConstantProductPool
/// @notice An x·y=k market for one token pair, Uniswap v2's formula: a swap of `amountIn` pays
///         out `amountIn·(10000−feeBps)·reserveOut / (reserveIn·10000 + amountIn·(10000−feeBps))`,
///         so the fee stays in the pool for the liquidity providers. The pool's own ERC-20 is the
///         liquidity share.
contract ConstantProductPool is ERC20 {
    IERC20 public immutable token0;
    IERC20 public immutable token1;
    uint256 public immutable feeBps;
    uint256 public reserve0;
    uint256 public reserve1;

    event Swap(address indexed sender, address indexed tokenIn, uint256 amountIn, uint256 amountOut, address indexed to);
    event Sync(uint256 reserve0, uint256 reserve1);

    constructor(IERC20 token0_, IERC20 token1_, uint256 feeBps_) ERC20("Local pool share", "LPS", 18) {
        require(address(token0_) != address(token1_), "Pool: identical tokens");
        require(feeBps_ < 10_000, "Pool: fee too high");
        token0 = token0_;
        token1 = token1_;
        feeBps = feeBps_;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// @notice What a swap of `amountIn` of `tokenIn` pays out now.
    function quote(address tokenIn, uint256 amountIn) public view returns (uint256) {
        (uint256 rIn, uint256 rOut) = _reservesFor(tokenIn);
        uint256 inWithFee = amountIn * (10_000 - feeBps);
        return (inWithFee * rOut) / (rIn * 10_000 + inWithFee);
    }

    /// @notice Swaps `amountIn` of `tokenIn` (pulled from the caller) for the other token, sent to `to`.
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) external returns (uint256 amountOut) {
        require(amountIn > 0, "Pool: zero input");
        amountOut = quote(tokenIn, amountIn);
        require(amountOut >= minAmountOut, "Pool: output below minimum");
        require(amountOut > 0, "Pool: zero output");
        IERC20 tokenOut = tokenIn == address(token0) ? token1 : token0;
        require(IERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn), "Pool: transfer in failed");
        require(tokenOut.transfer(to, amountOut), "Pool: transfer out failed");
        if (tokenIn == address(token0)) {
            reserve0 += amountIn;
            reserve1 -= amountOut;
        } else {
            reserve1 += amountIn;
            reserve0 -= amountOut;
        }
        emit Swap(msg.sender, tokenIn, amountIn, amountOut, to);
        emit Sync(reserve0, reserve1);
    }

    /// @notice Adds both tokens (pulled from the caller) at the pool's ratio; the first deposit sets it.
    function addLiquidity(uint256 amount0, uint256 amount1, address to) external returns (uint256 shares) {
        uint256 supply = totalSupply;
        if (supply == 0) {
            shares = _sqrt(amount0 * amount1);
        } else {
            uint256 s0 = (amount0 * supply) / reserve0;
            uint256 s1 = (amount1 * supply) / reserve1;
            shares = s0 < s1 ? s0 : s1;
        }
        require(shares > 0, "Pool: zero shares");
        require(token0.transferFrom(msg.sender, address(this), amount0), "Pool: transfer failed");
        require(token1.transferFrom(msg.sender, address(this), amount1), "Pool: transfer failed");
        reserve0 += amount0;
        reserve1 += amount1;
        _mint(to, shares);
        emit Sync(reserve0, reserve1);
    }

    /// @notice Burns the caller's `shares` for their part of both reserves.
    function removeLiquidity(uint256 shares, address to) external returns (uint256 amount0, uint256 amount1) {
        uint256 supply = totalSupply;
        amount0 = (shares * reserve0) / supply;
        amount1 = (shares * reserve1) / supply;
        _burn(msg.sender, shares);
        reserve0 -= amount0;
        reserve1 -= amount1;
        require(token0.transfer(to, amount0), "Pool: transfer failed");
        require(token1.transfer(to, amount1), "Pool: transfer failed");
        emit Sync(reserve0, reserve1);
    }

    function _reservesFor(address tokenIn) private view returns (uint256, uint256) {
        if (tokenIn == address(token0)) return (reserve0, reserve1);
        require(tokenIn == address(token1), "Pool: token not in pool");
        return (reserve1, reserve0);
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
