/** What the wallets family offers the other families. */
export { requirePrivateKey } from "./private-keys.js";
export { renderPrivateKey, renderWallet } from "./views.js";
