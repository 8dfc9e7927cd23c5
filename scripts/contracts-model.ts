/**
 * A prose-free model of a Swagger 2.0 document: only names, types, enums, formats and
 * required flags survive. Both emitters (zod and OpenAPI) work from this model.
 */

export type Shape =
  | { kind: "ref"; name: string }
  | { kind: "string"; enum?: string[]; format?: string }
  | { kind: "integer"; format?: string }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "array"; items: Shape }
  | { kind: "object"; properties: Record<string, Shape>; required: string[]; additional?: Shape | "any" }
  | { kind: "any" };

export type Operation = {
  path: string;
  /** "submit" (activity), "query" (read), or "proxy" (auth proxy). */
  kind: "submit" | "query" | "proxy" | "other";
  /** Short operation name: the last path segment (`create_wallet`). */
  name: string;
  request: string;
  response: string;
  activityType?: string;
  intentKey?: string;
  resultKey?: string;
};

export type ContractModel = {
  surface: "coordinator" | "proxy";
  definitions: Map<string, Shape>;
  operations: Operation[];
};

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export function toShape(schema: Json): Shape {
  if (!schema || typeof schema !== "object") return { kind: "any" };
  if (schema.$ref) return { kind: "ref", name: String(schema.$ref).split("/").pop()! };
  switch (schema.type) {
    case "string":
      return {
        kind: "string",
        ...(Array.isArray(schema.enum) ? { enum: schema.enum.map(String) } : {}),
        ...(schema.format ? { format: String(schema.format) } : {}),
      };
    case "integer":
      return { kind: "integer", ...(schema.format ? { format: String(schema.format) } : {}) };
    case "number":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "array":
      return { kind: "array", items: toShape(schema.items) };
    case "object":
    case undefined: {
      if (schema.type === undefined && !schema.properties) return { kind: "any" };
      const properties: Record<string, Shape> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) properties[k] = toShape(v);
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      const ap = schema.additionalProperties;
      const additional =
        ap === undefined || ap === false ? undefined : ap === true || Object.keys(ap).length === 0 ? "any" : toShape(ap);
      return { kind: "object", properties, required, ...(additional ? { additional } : {}) };
    }
    default:
      return { kind: "any" };
  }
}

export function buildModel(doc: Json, surface: "coordinator" | "proxy"): ContractModel {
  const definitions = new Map<string, Shape>();
  for (const name of Object.keys(doc.definitions ?? {}).sort()) definitions.set(name, toShape(doc.definitions[name]));

  const intentProps = objectProps(definitions.get("v1Intent"));
  const resultProps = objectProps(definitions.get("v1Result"));
  const intentKeyByDef = new Map<string, string>();
  for (const [key, shape] of Object.entries(intentProps)) if (shape.kind === "ref") intentKeyByDef.set(shape.name, key);

  const operations: Operation[] = [];
  for (const path of Object.keys(doc.paths ?? {}).sort()) {
    const post = doc.paths[path]?.post;
    if (!post) continue;
    const body = (post.parameters ?? []).find((p: Json) => p.in === "body");
    const request = body?.schema?.$ref ? String(body.schema.$ref).split("/").pop()! : "";
    const response = String(post.responses?.["200"]?.schema?.$ref ?? "").split("/").pop()!;
    const name = path.split("/").pop()!;
    const kind: Operation["kind"] = path.startsWith("/public/v1/submit/")
      ? "submit"
      : path.startsWith("/public/v1/query/")
        ? "query"
        : surface === "proxy" && path.startsWith("/v1/")
          ? "proxy"
          : "other";
    const op: Operation = { path, kind, name, request, response };
    if (kind === "submit") {
      const req = definitions.get(request);
      const props = objectProps(req);
      const typeShape = props["type"];
      if (typeShape?.kind === "string" && typeShape.enum?.length === 1) op.activityType = typeShape.enum[0];
      const params = props["parameters"];
      if (params?.kind === "ref") {
        const intentKey = intentKeyByDef.get(params.name);
        if (intentKey) {
          op.intentKey = intentKey;
          op.resultKey = resultKeyFor(intentKey, resultProps);
        }
      }
    }
    operations.push(op);
  }
  return { surface, definitions, operations };
}

function objectProps(shape: Shape | undefined): Record<string, Shape> {
  return shape?.kind === "object" ? shape.properties : {};
}

/**
 * The result member of an activity follows its intent member's name: `fooIntentV3` pairs
 * with the highest `fooResultVn` (n <= 3) that exists, else `fooResult`. Activities with no
 * result member (approve/reject) get none.
 */
export function resultKeyFor(intentKey: string, resultProps: Record<string, Shape>): string | undefined {
  const m = /^(.*)Intent(?:V(\d+))?$/.exec(intentKey);
  if (!m) return undefined;
  const base = m[1]!;
  const version = m[2] ? Number(m[2]) : 1;
  for (let v = version; v >= 2; v--) if (resultProps[`${base}ResultV${v}`]) return `${base}ResultV${v}`;
  return resultProps[`${base}Result`] ? `${base}Result` : undefined;
}

/** Definitions in an order where every reference precedes its use; cycles are reported. */
export function topoOrder(defs: Map<string, Shape>): { order: string[]; cyclic: Set<string> } {
  const order: string[] = [];
  const state = new Map<string, 1 | 2>();
  const cyclic = new Set<string>();
  const visit = (name: string, stack: string[]): void => {
    const s = state.get(name);
    if (s === 2) return;
    if (s === 1) {
      for (const n of stack.slice(stack.indexOf(name))) cyclic.add(n);
      return;
    }
    state.set(name, 1);
    for (const dep of refsOf(defs.get(name))) if (defs.has(dep)) visit(dep, [...stack, name]);
    state.set(name, 2);
    order.push(name);
  };
  for (const name of defs.keys()) visit(name, []);
  return { order, cyclic };
}

function refsOf(shape: Shape | undefined): string[] {
  if (!shape) return [];
  switch (shape.kind) {
    case "ref":
      return [shape.name];
    case "array":
      return refsOf(shape.items);
    case "object":
      return [
        ...Object.values(shape.properties).flatMap(refsOf),
        ...(shape.additional && shape.additional !== "any" ? refsOf(shape.additional) : []),
      ];
    default:
      return [];
  }
}
