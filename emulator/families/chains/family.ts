/**
 * The chains family: the instance's chains (embedded EVM and Solana chains on first use, or
 * external nodes named with `--chain`), the chain watcher that turns what lands on them into
 * events, sends and the gas station, local DeFi, the chain-data queries and the chains' JSON-RPC
 * routes. Earn and swaps hand their transactions to chains through its sending service.
 */
import type { Server } from "node:http";
import { defineFamily } from "../../core/family.js";
import { Networks, type ChainsOptions } from "./networks.js";
import { fixtureFundedAccounts } from "./fixture-accounts.js";
import type { ChainWatcher } from "./watch.js";
import { networksRouter } from "./routes.js";
import { sendTransactionOperations } from "./send-transactions.js";
import { chainDataQueryOperations } from "./queries.js";
import { GasUsageConfigs, SendTransactions } from "./repository.js";
import type { SponsoredSource } from "./gas-station/usage.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    chains: {
      /** Local chains (created on first use) and external chain clients, by caip2. */
      networks: Networks;
      /** Turns landed transactions into balance and send-status events (watch.ts), made on first use; closes with the networks. */
      watcher?: ChainWatcher;
      /** Where the gas station finds the sponsored transactions other families recorded (gas-station/usage.ts). */
      sponsoredSources: SponsoredSource[];
    };
  }
}

export const chainsFamily = defineFamily<ChainsOptions>({
  name: "chains",
  operations: [...sendTransactionOperations, ...chainDataQueryOperations],
  repositories: (db) => ({ sendTransactions: new SendTransactions(db), gasUsageConfigs: new GasUsageConfigs(db) }),
  start(rt, { options, fixture }) {
    const networks = new Networks({ external: options.chains, fundedAccounts: () => fixtureFundedAccounts(fixture), baseUrl: () => rt.urls.baseUrl, now: () => rt.clock.now() });
    rt.families.chains = { networks, sponsoredSources: [] };
  },
  listening(rt, server: Server) {
    server.on("upgrade", (req, socket) => rt.families.chains.networks.handleUpgrade(req, socket));
  },
  reset(rt) {
    void rt.families.chains.networks.reset();
  },
  async stop(rt) {
    await rt.families.chains.networks.close(); // and with them the chain watcher
  },
  hooks: {
    clockMoved: (rt) => rt.families.chains.networks.clockMoved(), // local EVM chains mine a block at the new time
  },
  routes: {
    control: (rt) => networksRouter(rt),
  },
  info: (rt) => ({ chains: rt.families.chains.networks.list() }),
});
