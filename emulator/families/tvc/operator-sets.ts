/**
 * The manifest set and share set of a new TVC app: either an existing operator set named by id
 * (sets are immutable, so apps may share one) or a new set made of new and existing operators.
 * Each refusal names the request field; writes happen only after every check passed, inside
 * the activity's transaction.
 */
import { invalidArgument, notFound, withField } from "../../core/errors.js";
import { checkName, requireUuid } from "../../core/vocabulary/lookups.js";
import type { Store } from "../../core/store/index.js";
import type { TvcOperatorSetRow } from "./repository.js";
import type { Random } from "../../core/random.js";
import { parseTvcPublicKey } from "./keys.js";

export type OperatorSetParams = {
  name: string;
  newOperators?: { name: string; publicKey: string }[];
  existingOperatorIds?: string[];
  /** int64 as the contract reads it (decimal string). */
  threshold: string;
};

/** What an app's set resolves to before anything is written. */
type Plan =
  | { kind: "existing"; set: TvcOperatorSetRow }
  | { kind: "new"; name: string; threshold: number; existingIds: string[]; newOperators: { name: string; publicKey: string }[] };

/**
 * Checks one of the app's two sets (`which` is "manifestSet" or "shareSet") given as
 * `<which>Id` or `<which>Params`, exactly one of them.
 */
export function planOperatorSet(store: Store, orgId: string, which: "manifestSet" | "shareSet", id: string | undefined, params: OperatorSetParams | undefined): Plan {
  const idField = `parameters.${which}Id`;
  const paramsField = `parameters.${which}Params`;
  if (id && params) throw invalidArgument(`give ${which}Id or ${which}Params, not both`, idField);
  if (id) {
    requireUuid(id, idField, "TVC operator set");
    const set = store.tvc.operatorSet(orgId, id);
    if (!set) throw notFound(`TVC operator set not found: ${id}`);
    return { kind: "existing", set };
  }
  if (!params) throw invalidArgument(`${paramsField} is required when ${which}Id is empty`, paramsField);

  checkName(params.name, `${paramsField}.name`);
  const existingIds = params.existingOperatorIds ?? [];
  const newOperators = params.newOperators ?? [];
  const keys = new Map<string, string>();
  const claim = (key: string, field: string) => {
    const other = keys.get(key);
    if (other) throw invalidArgument(`${field} has the same public key as ${other}: each operator of a set must hold its own key`, field);
    keys.set(key, field);
  };
  existingIds.forEach((opId, i) => {
    const field = `${paramsField}.existingOperatorIds[${i}]`;
    requireUuid(opId, field, "TVC operator");
    if (existingIds.indexOf(opId) !== i) throw invalidArgument(`duplicate value in ${paramsField}.existingOperatorIds: ${opId}`, field);
    const op = store.tvc.operator(orgId, opId);
    if (!op) throw notFound(`TVC operator not found: ${opId}`);
    claim(op.publicKey, field);
  });
  const fresh = newOperators.map((o, i) => {
    const field = `${paramsField}.newOperators[${i}]`;
    checkName(o.name, `${field}.name`);
    const publicKey = withField(undefined, () => parseTvcPublicKey(o.publicKey, `${field}.publicKey`));
    claim(publicKey, `${field}.publicKey`);
    return { name: o.name, publicKey };
  });
  const size = existingIds.length + fresh.length;
  if (size === 0) throw invalidArgument(`${paramsField} needs at least one operator (newOperators or existingOperatorIds)`, paramsField);
  const threshold = Number(params.threshold);
  if (!Number.isSafeInteger(threshold) || threshold < 1 || threshold > size)
    throw invalidArgument(`${paramsField}.threshold must be between 1 and the number of operators in the set (${size}), got ${params.threshold}`, `${paramsField}.threshold`);
  return { kind: "new", name: params.name, threshold, existingIds, newOperators: fresh };
}

/** Writes a planned set (new operators first); returns the set row. */
export function createOperatorSet(store: Store, random: Random, orgId: string, plan: Plan, now: number): TvcOperatorSetRow {
  if (plan.kind === "existing") return plan.set;
  const created = plan.newOperators.map((o) => {
    const id = random.uuid();
    store.tvc.insertOperator({ id, orgId, name: o.name, publicKey: o.publicKey, keySource: "EXTERNAL_KEY", createdAt: now, updatedAt: now });
    return id;
  });
  const set: TvcOperatorSetRow = { id: random.uuid(), orgId, name: plan.name, threshold: plan.threshold, operatorIds: [...plan.existingIds, ...created], createdAt: now, updatedAt: now };
  store.tvc.insertOperatorSet(set);
  return set;
}
