/**
 * Older activity types accepted on a path whose document names a newer version (e.g.
 * ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4 at /submit/create_sub_organization). Each is
 * accepted with its own intent and result members: an older version its registry entry maps
 * (`olderVersions`) reads its own intent only; one whose intent reads as the current one
 * (`legacy`) takes either shape. Which older types a path accepts is its registry entry's
 * (in its family; read by emulator/core/registry.ts `resolveActivity`); a type it does not
 * accept is refused naming every one it does.
 */
import { z } from "zod";
import type { OperationContract } from "./operation.js";
import { schemas } from "./generated/public-api.js";
import { lazy } from "./zod-helpers.js";

const camel = (s: string) => s.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7` -> `createSubOrganizationIntentV7`. */
export function intentKeyOf(activityType: string): string {
  const m = /^ACTIVITY_TYPE_(.+?)(?:_V(\d+))?$/.exec(activityType)!;
  return `${camel(m[1]!)}Intent${m[2] ? `V${m[2]}` : ""}`;
}

const resultMembers = lazy(() => new Set(Object.keys((schemas.v1Result as unknown as { shape: Record<string, unknown> }).shape)));

function resultKeyOf(intentKey: string): string | undefined {
  const members = resultMembers();
  const m = /^(.*)Intent(?:V(\d+))?$/.exec(intentKey)!;
  for (let v = Number(m[2] ?? 1); v >= 2; v--) if (members.has(`${m[1]}ResultV${v}`)) return `${m[1]}ResultV${v}`;
  return members.has(`${m[1]}Result`) ? `${m[1]}Result` : undefined;
}

/**
 * Activity type names that no document's enum has but an official SDK sends: each stands for the
 * current type of its path and is answered as that type (the service's enum has no other name
 * for it). @turnkey/sdk-server and sdk-browser 8.2.1 build ACTIVITY_TYPE_ETH_UNDELEGATE7702 from
 * the method name (packages/sdk-server/src/__generated__/sdk-client-base.ts:447).
 */
export type UndocumentedActivityType = "ACTIVITY_TYPE_ETH_UNDELEGATE7702";

const documentedTypes = lazy(() => new Set<string>((schemas.v1ActivityType as unknown as { options: string[] }).options));

/** The schema of a result member (`initOtpResult` -> v1InitOtpResult), if the document has one. */
function resultSchemaOf(resultKey: string | undefined): z.ZodType | undefined {
  return resultKey ? schemas[`v1${resultKey[0]!.toUpperCase()}${resultKey.slice(1)}`] : undefined;
}

const cache = new Map<string, OperationContract>();

/**
 * The operation as it reads an older activity type that its registry entry still accepts
 * (`accepted`), or undefined when that type is not accepted here. `ownIntentOnly`: the
 * parameters must be the older intent (an older version mapped onto the current behaviour),
 * else either the older or the current intent.
 */
export function legacyVariant(op: OperationContract, activityType: string, accepted: readonly string[], ownIntentOnly = false): OperationContract | undefined {
  if (!accepted.includes(activityType)) return undefined;
  const key = `${op.name} ${activityType}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // An undocumented spelling reads and answers as the path's own type.
  const documented = documentedTypes().has(activityType);
  const intentKey = documented ? intentKeyOf(activityType) : op.intentKey!;
  const legacyIntent = schemas[`v1${intentKey[0]!.toUpperCase()}${intentKey.slice(1)}`];
  const currentIntent = schemas[`v1${op.intentKey![0]!.toUpperCase()}${op.intentKey!.slice(1)}`];
  if (!legacyIntent || !currentIntent) return undefined;
  const variant: OperationContract = {
    ...op,
    activityType: documented ? activityType : op.activityType,
    intentKey,
    resultKey: documented ? resultKeyOf(intentKey) : op.resultKey,
    olderResult: documented ? resultSchemaOf(resultKeyOf(intentKey)) : undefined,
    requestName: `${op.requestName} (${activityType})`,
    request: z.object({
      type: z.literal(activityType),
      timestampMs: z.string(),
      organizationId: z.string(),
      parameters: ownIntentOnly ? legacyIntent : z.union([legacyIntent, currentIntent]),
      generateAppProofs: z.boolean().optional(),
    }),
  };
  cache.set(key, variant);
  return variant;
}

const refusing = new Map<string, OperationContract>();

/**
 * The operation reading a body whose `type` it does not accept: its schema refuses the type
 * naming the field and every type the path accepts (`type: invalid value, expected one of …`).
 */
export function acceptingOnly(op: OperationContract, accepted: readonly [string, ...string[]]): OperationContract {
  const hit = refusing.get(op.name);
  if (hit) return hit;
  const request = op.request as z.ZodObject;
  const variant: OperationContract = { ...op, request: request.extend({ type: z.enum(accepted) }) };
  refusing.set(op.name, variant);
  return variant;
}
