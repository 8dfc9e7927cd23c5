// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "./ERC20.sol";

interface IWrappedEther is IERC20 {
    function deposit() external payable;
    function withdraw(uint256 value) external;
}

/// The calls the router makes on a ConstantProductPool.
interface ISwapPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) external returns (uint256);
}

/// @title LocalSwapRouter
/// @notice Swaps between ether and a token through a pool that trades the token against WETH, so
///         an account sends or receives ether itself: ether in is wrapped and swapped in one call;
///         a swap to ether pulls the token (the caller approves the router), swaps it for WETH
///         held here, unwraps exactly what the pool paid and sends that ether on. The router keeps
///         nothing between calls. `Routed` gives each swap's input and output, ether as address(0).
contract LocalSwapRouter {
    IWrappedEther public immutable weth;

    event Routed(address indexed sender, address indexed pool, address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut, address indexed to);

    constructor(IWrappedEther weth_) {
        weth = weth_;
    }

    /// Ether arrives only from WETH's withdraw.
    receive() external payable {
        require(msg.sender == address(weth), "Router: ether only from WETH");
    }

    /// @notice Swaps `amountIn` of `tokenIn` (pulled from the caller) on `pool` for ether sent to
    ///         `to`; reverts when the output is below `minOut`.
    function swapExactTokensForETH(ISwapPool pool, address tokenIn, uint256 amountIn, uint256 minOut, address to) external returns (uint256 amountOut) {
        require(tokenIn != address(weth), "Router: WETH in: unwrap it with WETH's withdraw");
        require(_other(pool, tokenIn) == address(weth), "Router: pool does not pay out WETH");
        require(IERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn), "Router: transfer in failed");
        require(IERC20(tokenIn).approve(address(pool), amountIn), "Router: approve failed");
        uint256 held = weth.balanceOf(address(this));
        pool.swap(tokenIn, amountIn, minOut, address(this));
        amountOut = weth.balanceOf(address(this)) - held;
        require(amountOut >= minOut, "Router: output below minimum");
        weth.withdraw(amountOut);
        (bool ok,) = to.call{value: amountOut}("");
        require(ok, "Router: ether transfer failed");
        emit Routed(msg.sender, address(pool), tokenIn, amountIn, address(0), amountOut, to);
    }

    /// @notice Swaps the ether sent on `pool` (which trades WETH) for its other token, paid to
    ///         `to`; reverts when the output is below `minOut`.
    function swapExactETHForTokens(ISwapPool pool, uint256 minOut, address to) external payable returns (uint256 amountOut) {
        require(msg.value > 0, "Router: zero input");
        address tokenOut = _other(pool, address(weth));
        weth.deposit{value: msg.value}();
        require(weth.approve(address(pool), msg.value), "Router: approve failed");
        amountOut = pool.swap(address(weth), msg.value, minOut, to);
        emit Routed(msg.sender, address(pool), address(0), msg.value, tokenOut, amountOut, to);
    }

    /// The token `pool` trades against `token`.
    function _other(ISwapPool pool, address token) private view returns (address) {
        address token0 = pool.token0();
        if (token == token0) return pool.token1();
        require(token == pool.token1(), "Router: token not in pool");
        return token0;
    }
}
