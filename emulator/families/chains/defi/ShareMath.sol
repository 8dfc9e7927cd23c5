// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// @title ShareMath
/// @notice ERC-4626's conversion between assets and shares, written once for YieldVault and
///         EarnWrapper: shares are the contract's own ERC-20, assets are whatever `totalAssets`
///         (each vault's own) says the holders own. The first deposit prices one share at one
///         unit; conversions round down, except the shares a withdrawal burns and the assets a
///         mint takes (rounded up, in the vault's favour).
abstract contract ShareMath is ERC20 {
    /// @notice What the shareholders own now, in assets.
    function totalAssets() public view virtual returns (uint256);

    function convertToShares(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    function maxWithdraw(address owner) external view returns (uint256) {
        return _toAssets(balanceOf[owner], false);
    }

    function maxRedeem(address owner) external view returns (uint256) {
        return balanceOf[owner];
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        return _toShares(assets, true);
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    /// Shares for `assets` at the current price; the first deposit prices one share at one unit.
    function _toShares(uint256 assets, bool up) internal view returns (uint256) {
        uint256 supply = totalSupply;
        uint256 total = totalAssets();
        if (supply == 0 || total == 0) return assets;
        return _mulDiv(assets, supply, total, up);
    }

    function _toAssets(uint256 shares, bool up) internal view returns (uint256) {
        uint256 supply = totalSupply;
        if (supply == 0) return shares;
        return _mulDiv(shares, totalAssets(), supply, up);
    }

    function _mulDiv(uint256 a, uint256 b, uint256 d, bool up) private pure returns (uint256) {
        uint256 q = (a * b) / d;
        return up && q * d != a * b ? q + 1 : q;
    }
}
