/**
 * Where a scenario runs. On a live target everything a scenario creates goes into a fresh
 * sub-organization: created by the target's root key with one root user whose API key the
 * run generates, and deleted at the end by that user (delete_sub_organization must be
 * initiated inside the sub-organization, with deleteWithoutExport). If the target answers
 * 501 / code 12 for create_sub_organization, the run falls back to the root organization
 * and says so.
 */
import type { HttpClient, HttpResult } from "./http.js";
import { newApiKeyPair, type ApiKeyPair } from "./keys.js";
import type { ScopeOrg } from "./interpolate.js";
import type { Problem, ScopeInfo } from "./types.js";
import { coordinator } from "../index.js";

export type ScopeHandle = { org: ScopeOrg; rootKey: ApiKeyPair; info: ScopeInfo; close(): Promise<Problem[]> };

export type ScopeRuntime = {
  http: HttpClient;
  url: string;
  rootOrg: ScopeOrg;
  rootKey: ApiKeyPair;
  /** Set once the target has said it cannot create sub-organizations. */
  subOrgUnsupported?: string;
  /** Sub-organizations this run could not delete. */
  leftBehind: string[];
};

const CREATE = "/public/v1/submit/create_sub_organization";
const DELETE = "/public/v1/submit/delete_sub_organization";

export const isUnimplemented = (r: HttpResult): boolean => r.status === 501 || (r.body as { code?: unknown } | undefined)?.code === 12;

export function describeFailure(r: HttpResult): string {
  const b = r.body as { code?: number; message?: string; activity?: { status?: string; failure?: { message?: string } } } | undefined;
  if (r.status !== 200) return `HTTP ${r.status}${b?.code !== undefined ? ` code ${b.code}` : ""}${b?.message ? `: ${b.message}` : ""}`;
  return `activity ${b?.activity?.status ?? "(no activity)"}${b?.activity?.failure?.message ? `: ${b.activity.failure.message}` : ""}`;
}

function envelope(path: string, organizationId: string, parameters: unknown): string {
  return JSON.stringify({ type: coordinator[path]!.activityType, timestampMs: String(Date.now()), organizationId, parameters });
}

export async function openScope(rt: ScopeRuntime, mode: "root" | "suborg", scenarioName: string): Promise<ScopeHandle> {
  const root = (info: ScopeInfo): ScopeHandle => ({ org: rt.rootOrg, rootKey: rt.rootKey, info, close: async () => [] });
  if (mode === "root") return root({ mode: "root", organizationId: rt.rootOrg.id });
  if (rt.subOrgUnsupported) return root({ mode: "root", organizationId: rt.rootOrg.id, fallback: rt.subOrgUnsupported });

  const key = newApiKeyPair();
  const rootUserName = "conformance root";
  const res = await rt.http.post(
    rt.url + CREATE,
    envelope(CREATE, rt.rootOrg.id, {
      subOrganizationName: `conformance ${scenarioName} ${new Date().toISOString()}`,
      rootUsers: [{ userName: rootUserName, apiKeys: [{ apiKeyName: "conformance run key", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    }),
    { key: rt.rootKey },
  );
  if (isUnimplemented(res)) {
    rt.subOrgUnsupported = `create_sub_organization is not implemented by the target (${describeFailure(res)}): ran in the root organization`;
    return root({ mode: "root", organizationId: rt.rootOrg.id, fallback: rt.subOrgUnsupported });
  }
  const act = (res.body as { activity?: { status?: string; result?: Record<string, { subOrganizationId?: string; rootUserIds?: string[] }> } })?.activity;
  const result = act?.result?.[coordinator[CREATE]!.resultKey!];
  if (res.status !== 200 || act?.status !== "ACTIVITY_STATUS_COMPLETED" || !result?.subOrganizationId || !result.rootUserIds?.[0]) {
    throw new Error(`could not create a sub-organization for the scenario: ${describeFailure(res)}`);
  }
  const subId = result.subOrganizationId;
  const org: ScopeOrg = { id: subId, name: `conformance ${scenarioName}`, rootUserId: result.rootUserIds[0], rootUserName };
  const info: ScopeInfo = { mode: "suborg", organizationId: subId, cleanedUp: false };
  return {
    org,
    rootKey: key,
    info,
    async close() {
      const del = await rt.http.post(rt.url + DELETE, envelope(DELETE, subId, { deleteWithoutExport: true }), { key });
      const status = (del.body as { activity?: { status?: string } })?.activity?.status;
      if (del.status === 200 && status === "ACTIVITY_STATUS_COMPLETED") {
        info.cleanedUp = true;
        return [];
      }
      rt.leftBehind.push(subId);
      return [{ kind: "cleanup", message: `could not delete sub-organization ${subId}: ${describeFailure(del)}` }];
    },
  };
}
