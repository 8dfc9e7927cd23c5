/** Resolves a step's operation name to its route and contract. */
import { coordinator, proxy, type OperationContract } from "../index.js";
import type { Step } from "./format.js";

export type StepOperation = { kind: "submit" | "query" | "proxy"; name: string; path: string; contract: OperationContract };

export function stepKind(step: Step): "submit" | "query" | "proxy" {
  return step.submit !== undefined ? "submit" : step.query !== undefined ? "query" : "proxy";
}

export function lookupOperation(kind: "submit" | "query" | "proxy", name: string): StepOperation | undefined {
  const path = kind === "proxy" ? `/v1/${name}` : `/public/v1/${kind}/${name}`;
  const contract = kind === "proxy" ? proxy[path] : coordinator[path];
  return contract ? { kind, name, path, contract } : undefined;
}

export function stepOperation(step: Step): StepOperation {
  const kind = stepKind(step);
  const op = lookupOperation(kind, step[kind]!);
  if (!op) throw new Error(`unknown ${kind} operation ${step[kind]}`);
  return op;
}

/** Names of operations of a kind, for suggestions in load errors. */
export function operationNames(kind: "submit" | "query" | "proxy"): string[] {
  const table = kind === "proxy" ? proxy : coordinator;
  return Object.values(table)
    .filter((o) => o.kind === kind)
    .map((o) => o.name);
}
