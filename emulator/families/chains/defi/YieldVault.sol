// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, IERC20} from "./ERC20.sol";
import {ShareMath} from "./ShareMath.sol";

/// @title YieldVault
/// @notice An ERC-4626 vault whose assets grow at a fixed rate per second of block time: the local
///         chains' stand-in for a lending vault. The yield is simple interest on what the vault
///         owes its shareholders, `owed × ratePerSecond × elapsed / 1e18`, added to the debt (so
///         compounded) whenever anyone deposits or withdraws. It is paid out of a reserve of the
///         asset the vault holds beyond what it owes (funded at deploy: anyone may top it up by
///         transferring the asset in), and stops growing when the reserve runs dry.
contract YieldVault is ShareMath {
    IERC20 public immutable asset;
    /// Yield per second per unit owed, scaled by 1e18 (5% a year is 0.05e18 / 31_536_000).
    uint256 public immutable ratePerSecond;
    /// What the vault owed its shareholders at `lastAccrual`.
    uint256 public owed;
    uint256 public lastAccrual;

    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);
    event Accrued(uint256 owed, uint256 timestamp);

    constructor(IERC20 asset_, string memory name_, string memory symbol_, uint8 decimals_, uint256 ratePerSecond_)
        ERC20(name_, symbol_, decimals_)
    {
        asset = asset_;
        ratePerSecond = ratePerSecond_;
        lastAccrual = block.timestamp;
    }

    /// @notice The assets the vault holds beyond what it owes: where the yield comes from.
    function reserve() public view returns (uint256) {
        uint256 held = asset.balanceOf(address(this));
        uint256 total = totalAssets();
        return held > total ? held - total : 0;
    }

    /// @notice What the shareholders own now: the debt plus the yield accrued since `lastAccrual`.
    function totalAssets() public view override returns (uint256) {
        uint256 grown = owed + (owed * ratePerSecond * (block.timestamp - lastAccrual)) / 1e18;
        uint256 held = asset.balanceOf(address(this));
        return grown < held ? grown : held;
    }

    function maxDeposit(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function maxMint(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function previewMint(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, true);
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        _accrue();
        shares = previewDeposit(assets);
        require(shares > 0, "YieldVault: zero shares");
        _enter(assets, shares, receiver);
    }

    function mint(uint256 shares, address receiver) external returns (uint256 assets) {
        _accrue();
        assets = previewMint(shares);
        _enter(assets, shares, receiver);
    }

    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256 shares) {
        _accrue();
        shares = previewWithdraw(assets);
        _exit(assets, shares, receiver, owner);
    }

    function redeem(uint256 shares, address receiver, address owner) external returns (uint256 assets) {
        _accrue();
        assets = previewRedeem(shares);
        require(assets > 0, "YieldVault: zero assets");
        _exit(assets, shares, receiver, owner);
    }

    function _accrue() private {
        owed = totalAssets();
        lastAccrual = block.timestamp;
        emit Accrued(owed, block.timestamp);
    }

    function _enter(uint256 assets, uint256 shares, address receiver) private {
        require(asset.transferFrom(msg.sender, address(this), assets), "YieldVault: transfer failed");
        owed += assets;
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function _exit(uint256 assets, uint256 shares, address receiver, address owner) private {
        if (msg.sender != owner) _spendAllowance(owner, msg.sender, shares);
        _burn(owner, shares);
        owed -= assets;
        require(asset.transfer(receiver, assets), "YieldVault: transfer failed");
        emit Withdraw(msg.sender, receiver, owner, assets, shares);
    }
}
