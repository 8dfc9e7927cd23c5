/** Resolves a step's operation name to its route and contract. */
import { coordinator, proxy, type OperationContract } from "../index.js";

export type StepOperation = { kind: OperationKind; name: string; path: string; contract: OperationContract };

export type OperationKind = "submit" | "query" | "proxy";

/** What these functions read of a scenario step (format.ts `Step`): its name and the operation it calls, if any. */
type Step = { name: string } & { [K in OperationKind]?: string };

export function stepKind(step: Step): OperationKind | "control" {
  return step.submit !== undefined ? "submit" : step.query !== undefined ? "query" : step.proxy !== undefined ? "proxy" : "control";
}

/** The operation a step calls, as "submit create_users"; none for a control step. */
export function stepOperationLabel(step: Step): { kind: OperationKind; name: string } | undefined {
  const kind = stepKind(step);
  return kind === "control" ? undefined : { kind, name: step[kind]! };
}

export function lookupOperation(kind: OperationKind, name: string): StepOperation | undefined {
  const path = kind === "proxy" ? `/v1/${name}` : `/public/v1/${kind}/${name}`;
  const contract = kind === "proxy" ? proxy[path] : coordinator[path];
  return contract ? { kind, name, path, contract } : undefined;
}

export function stepOperation(step: Step): StepOperation {
  const called = stepOperationLabel(step);
  if (!called) throw new Error(`step "${step.name}" is a control step, not an operation`);
  const op = lookupOperation(called.kind, called.name);
  if (!op) throw new Error(`unknown ${called.kind} operation ${called.name}`);
  return op;
}

/** Names of operations of a kind, for suggestions in load errors. */
export function operationNames(kind: OperationKind): string[] {
  const table = kind === "proxy" ? proxy : coordinator;
  return Object.values(table)
    .filter((o) => o.kind === kind)
    .map((o) => o.name);
}
