/** What the chains family offers the other families and the root (its start options, `--chain`, the chains in `/emulator/v1/info`). */
export { parseCaip2 } from "./caip2.js";
export { networksOf, parseChainOption, requireNetworks } from "./networks.js";
export { formatUsd, USD_MICROS_PER_COIN, usdMicros } from "./prices.js";
export { displayAmount, holdings, parseCaip19, tokenCaip19 } from "./assets.js";
export type { AssetRef } from "./assets.js";
export { checkEvmAddress } from "./chain-address.js";
export type { EvmChain } from "./evm-chain.js";
export { eip1559Fees, requireFunds } from "./evm-fees.js";
export { sendBatch } from "./gas-station/sponsor.js";
export { addSponsoredSource, checkSponsorshipAllowed } from "./gas-station/usage.js";
export type { ChainListing, ChainsOptions, Networks } from "./networks.js";
export { RpcError } from "./rpc.js";
export { renderStatus } from "./send-status.js";
export { chainRejection, ethSigner, evmSent, recordSend, type SentTransaction } from "./sending.js";
export { chainWatcher } from "./watch.js";
