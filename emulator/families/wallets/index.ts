/** What the wallets family offers the other families. */
export { createPrivateKeys, randomPrivateKey, requirePrivateKey } from "./private-keys.js";
export { renderPrivateKey, renderWallet, renderWalletAccount } from "./views.js";
export { deriveAccount } from "./accounts.js";
export type { AccountParams } from "./accounts.js";
export { addAccounts, checkAccounts, createWallet, requireWallet } from "./wallets.js";
export { hasAccount, holdsAddress, organizationsHolding, privateKeysOf, walletAccountsOf, walletIdAt, walletOf, walletsOf } from "./reads.js";
