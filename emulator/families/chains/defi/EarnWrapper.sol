// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, IERC20} from "./ERC20.sol";
import {ShareMath} from "./ShareMath.sol";

interface IYieldVault {
    function asset() external view returns (IERC20);
    function balanceOf(address account) external view returns (uint256);
    function previewRedeem(uint256 shares) external view returns (uint256);
    function deposit(uint256 assets, address receiver) external returns (uint256);
    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256);
}

interface IMintable {
    function mint(address to, uint256 value) external;
}

/// @title EarnWrapper
/// @notice An organization's fee wrapper over one YieldVault: the Earn deposit target. It is an
///         ERC-4626-style vault itself: depositors get wrapper shares, the wrapper holds the vault's
///         shares. Of the yield the vault pays, `feeBps` / 10,000 is the client's fee, kept aside
///         for `feeWallet` (counted at every deposit, withdrawal and claim, on the growth since the
///         last one) and sent there by `claimFees`, which anyone may call. The owner may stop
///         deposits; withdrawals are always allowed. Holders also earn reward tokens at a fixed
///         rate per share per second (`rewardRate`, scaled by 1e18), minted when they claim.
contract EarnWrapper is ShareMath {
    uint256 public constant MAX_FEE_BPS = 4000;

    IYieldVault public immutable vault;
    IERC20 public immutable asset;
    address public immutable owner;
    address public immutable feeWallet;
    uint256 public immutable feeBps;
    IMintable public immutable rewardToken;
    uint256 public immutable rewardRate;
    uint256 public immutable rewardStart;

    bool public depositsDisabled;
    /// Client fees counted and not yet claimed, in assets.
    uint256 public feesOwed;
    /// The vault position's value when fees were last counted.
    uint256 public lastGross;
    uint256 public totalFeesClaimed;

    mapping(address => uint256) public rewardPerSharePaid;
    mapping(address => uint256) public rewardsOwed;
    mapping(address => uint256) public rewardsClaimed;

    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);
    event FeesClaimed(address indexed feeWallet, uint256 assets);
    event DepositsDisabledSet(bool disabled);
    event RewardsClaimed(address indexed account, uint256 amount);

    constructor(
        IYieldVault vault_,
        address owner_,
        address feeWallet_,
        uint256 feeBps_,
        IMintable rewardToken_,
        uint256 rewardRate_,
        string memory name_,
        string memory symbol_,
        uint8 decimals_
    ) ERC20(name_, symbol_, decimals_) {
        require(feeBps_ <= MAX_FEE_BPS, "EarnWrapper: fee above 40%");
        require(feeWallet_ != address(0), "EarnWrapper: no fee wallet");
        vault = vault_;
        asset = vault_.asset();
        owner = owner_;
        feeWallet = feeWallet_;
        feeBps = feeBps_;
        rewardToken = rewardToken_;
        rewardRate = rewardRate_;
        rewardStart = block.timestamp;
        asset.approve(address(vault_), type(uint256).max);
    }

    /// @notice The wrapper's vault shares valued in assets, fees included.
    function grossAssets() public view returns (uint256) {
        return vault.previewRedeem(vault.balanceOf(address(this)));
    }

    /// @notice The client fee claimable now: counted plus accrued since the last count.
    function claimableFees() public view returns (uint256) {
        return feesOwed + _feeOn(grossAssets());
    }

    /// @notice What the depositors own: the position less the client's fee.
    function totalAssets() public view override returns (uint256) {
        uint256 gross = grossAssets();
        uint256 fees = feesOwed + _feeOn(gross);
        return gross > fees ? gross - fees : 0;
    }

    function maxDeposit(address) external view returns (uint256) {
        return depositsDisabled ? 0 : type(uint256).max;
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        require(!depositsDisabled, "EarnWrapper: deposits are disabled");
        _countFees();
        shares = _toShares(assets, false);
        require(shares > 0, "EarnWrapper: zero shares");
        require(asset.transferFrom(msg.sender, address(this), assets), "EarnWrapper: transfer failed");
        vault.deposit(assets, address(this));
        lastGross = grossAssets();
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address account) external returns (uint256 shares) {
        _countFees();
        shares = _toShares(assets, true);
        _exit(assets, shares, receiver, account);
    }

    function redeem(uint256 shares, address receiver, address account) external returns (uint256 assets) {
        _countFees();
        assets = _toAssets(shares, false);
        require(assets > 0, "EarnWrapper: zero assets");
        _exit(assets, shares, receiver, account);
    }

    /// @notice Sends the client fee counted so far to the fee wallet.
    function claimFees() external returns (uint256 assets) {
        _countFees();
        assets = feesOwed;
        require(assets > 0, "EarnWrapper: no fees to claim");
        feesOwed = 0;
        totalFeesClaimed += assets;
        vault.withdraw(assets, feeWallet, address(this));
        lastGross = grossAssets();
        emit FeesClaimed(feeWallet, assets);
    }

    function setDepositsDisabled(bool disabled) external {
        require(msg.sender == owner, "EarnWrapper: not the owner");
        depositsDisabled = disabled;
        emit DepositsDisabledSet(disabled);
    }

    /// @notice Reward tokens per share (scaled by 1e18) since the wrapper was deployed.
    function rewardPerShare() public view returns (uint256) {
        return rewardRate * (block.timestamp - rewardStart);
    }

    /// @notice The rewards `account` may claim now.
    function earnedRewards(address account) public view returns (uint256) {
        return rewardsOwed[account] + (balanceOf[account] * (rewardPerShare() - rewardPerSharePaid[account])) / 1e18;
    }

    /// @notice Mints the caller's rewards to the caller.
    function claimRewards() external returns (uint256 amount) {
        _settleRewards(msg.sender);
        amount = rewardsOwed[msg.sender];
        require(amount > 0, "EarnWrapper: no rewards to claim");
        rewardsOwed[msg.sender] = 0;
        rewardsClaimed[msg.sender] += amount;
        rewardToken.mint(msg.sender, amount);
        emit RewardsClaimed(msg.sender, amount);
    }

    function _exit(uint256 assets, uint256 shares, address receiver, address account) private {
        if (msg.sender != account) _spendAllowance(account, msg.sender, shares);
        _burn(account, shares);
        vault.withdraw(assets, receiver, address(this));
        lastGross = grossAssets();
        emit Withdraw(msg.sender, receiver, account, assets, shares);
    }

    function _countFees() private {
        uint256 gross = grossAssets();
        feesOwed += _feeOn(gross);
        lastGross = gross;
    }

    function _feeOn(uint256 gross) private view returns (uint256) {
        return gross > lastGross ? ((gross - lastGross) * feeBps) / 10_000 : 0;
    }

    function _settleRewards(address account) private {
        rewardsOwed[account] = earnedRewards(account);
        rewardPerSharePaid[account] = rewardPerShare();
    }

    /// Rewards are settled before any balance changes, so each holder earns on what it held.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0)) _settleRewards(from);
        if (to != address(0)) _settleRewards(to);
        super._update(from, to, value);
    }
}
