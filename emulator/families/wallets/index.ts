/** What the wallets family offers the other families and the root (the fixtures' check and seeding). */
export { createPrivateKeys, insertPrivateKey, publicKeysOf, randomPrivateKey, requirePrivateKey } from "./private-keys.js";
export { renderPrivateKey, renderWallet, renderWalletAccount } from "./views.js";
export { checkAccountParams, deriveAccount } from "./accounts.js";
export type { AccountParams } from "./accounts.js";
export { addAccounts, checkAccounts, createWallet, insertWallet, requireWallet } from "./wallets.js";
export { hasAccount, holdsAddress, organizationsHolding, privateKeysOf, walletAccountsOf, walletCountsByOrganization, walletIdAt, walletOf, walletsOf } from "./reads.js";
