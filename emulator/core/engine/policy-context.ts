/**
 * The evaluation context of one activity for the policy engine: `activity`, `approvers`,
 * `credentials`, the keywords the families supply for what the request touches
 * (`rt.hooks.policyKeywords`: `wallet`, `private_key`, `wallet_account` from the wallets,
 * `secret`, and `controls`, the organization's velocity controls with this activity counted),
 * and the transaction or payload it carries (`eth`, `solana`, `tron`, `bitcoin`). A keyword
 * whose input cannot be decoded is left out: a policy that reads it then errors, which never
 * allows.
 */
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { StoredVote } from "../store/activities.js";
import {
  approverContext,
  buildActivityContext,
  buildBitcoinTxContext,
  buildEip712Context,
  buildEthTxContext,
  buildSolanaTxContext,
  buildTronTxContext,
  credentialContext,
  type EvaluationContext,
} from "../../policy/index.js";
import { describePsbt } from "../../signing/index.js";
import type { ResolvedSigner } from "../vocabulary/contexts.js";
import { parseInterface } from "../../policy/smart-contract-interfaces.js";
import type { PolicySubjects } from "../vocabulary/define.js";

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function bitcoinContext(psbtHex: string): Record<string, unknown> {
  const d = describePsbt(psbtHex);
  return buildBitcoinTxContext({
    version: d.version,
    inputs: d.inputs.map((i) => ({ txId: i.tx_id, vout: i.vout, sequence: i.sequence })),
    outputs: d.outputs.map((o) => ({ value: o.value, scriptPubKey: o.script, ...(o.address ? { address: o.address } : {}) })),
    locktime: { amount: d.locktime, type: d.locktime >= 500_000_000 ? "Seconds" : "Blocks" },
    ...(d.fee !== undefined ? { fee: d.fee } : {}),
  });
}

/**
 * `subjects` is what the activity's registry entry says it touches (its wallet, key, signer,
 * transaction or payload); `params` feeds only the generic `activity.params`. `signerOf` gives
 * the key a `signWith` names (undefined when nothing answers to it): the activity's frame
 * (frame.ts) looks each one up once for the context, the families' keywords and the
 * handler alike.
 */
export function buildPolicyContext(
  rt: Runtime,
  org: OrganizationRow,
  activityType: string,
  params: Record<string, unknown>,
  subjects: PolicySubjects,
  votes: StoredVote[],
  signerOf: (signWith: string) => ResolvedSigner | undefined,
  now: number,
): EvaluationContext {
  const { store } = rt;
  const approved = votes.filter((v) => v.selection === "VOTE_SELECTION_APPROVED");
  const ctx: Record<string, unknown> = {
    activity: buildActivityContext(activityType, params, rt.registry.policyOf(activityType)),
    approvers: approved.flatMap((v) => {
      const u = store.users.byId(v.userId);
      return u ? [approverContext({ userId: u.id, userName: u.name, userEmail: u.email ?? undefined, userTags: store.tags.tagsOf(u.id) })] : [];
    }),
    credentials: approved.map((v) => credentialContext({ id: v.credentialId ?? "", userId: v.userId, type: v.credentialType ?? "", publicKey: v.publicKey })),
  };

  // What the families know of what the activity touches: its wallet, key or account, secret, velocity controls.
  Object.assign(ctx, rt.hooks.policyKeywords(rt, { org, activityType, params, subjects, votes, signer: signerOf, now }));

  const signWith = subjects.signWith;

  const unsigned = subjects.transaction?.unsigned;
  if (unsigned) {
    switch (subjects.transaction?.type) {
      case "TRANSACTION_TYPE_ETHEREUM": {
        const tx = attempt(() => buildEthTxContext(unsigned, { from: signWith }));
        const to = typeof tx?.to === "string" ? tx.to : undefined;
        const sci = to ? store.smartContractInterfaces.byAddress(org.id, to).find((s) => s.type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") : undefined;
        const abi = sci ? attempt(() => parseInterface(sci.type, sci.interface, "abi")) : undefined;
        const decoded = abi ? attempt(() => buildEthTxContext(unsigned, { from: signWith, abi })) : undefined;
        if (decoded ?? tx) ctx.eth = { tx: decoded ?? tx };
        break;
      }
      case "TRANSACTION_TYPE_SOLANA": {
        const tx = attempt(() => buildSolanaTxContext(unsigned));
        if (tx) ctx.solana = { tx };
        break;
      }
      case "TRANSACTION_TYPE_TRON": {
        const tx = attempt(() => buildTronTxContext(unsigned));
        if (tx) ctx.tron = { tx };
        break;
      }
      case "TRANSACTION_TYPE_BITCOIN": {
        const tx = attempt(() => bitcoinContext(unsigned));
        if (tx) ctx.bitcoin = { tx };
        break;
      }
    }
  }

  const payload = subjects.payload?.payload;
  const encoding = subjects.payload?.encoding;
  if (payload && encoding === "PAYLOAD_ENCODING_EIP712") {
    const typed = attempt(() => buildEip712Context(payload));
    if (typed) ctx.eth = { ...((ctx.eth as object) ?? {}), eip_712: typed };
  }
  if (payload && encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION") {
    const auth = attempt(() => JSON.parse(payload) as { address?: string; contractAddress?: string; chainId?: unknown; nonce?: unknown });
    if (auth) {
      const big = (v: unknown) => attempt(() => BigInt(v as string | number));
      ctx.eth = {
        ...((ctx.eth as object) ?? {}),
        eip_7702_authorization: { address: String(auth.address ?? auth.contractAddress ?? "").toLowerCase(), chain_id: big(auth.chainId), nonce: big(auth.nonce) },
      };
    }
  }
  return ctx as EvaluationContext;
}
