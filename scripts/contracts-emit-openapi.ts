/** Emits our OpenAPI 3.1 document (no upstream prose) from one or more contract models. */
import type { ContractModel, Shape } from "./contracts-model.js";

type Json = Record<string, unknown>;

export function emitOpenApi(models: ContractModel[]): Json {
  const schemas: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  for (const model of models) {
    const prefix = model.surface === "proxy" ? "proxy_" : "";
    const ref = (name: string) => ({ $ref: `#/components/schemas/${prefix}${name}` });
    for (const [name, shape] of model.definitions) schemas[prefix + name] = toSchema(shape, ref);
    for (const op of model.operations) {
      if (op.kind === "other") continue;
      paths[op.path] = {
        post: {
          operationId: `${model.surface}_${op.name}`,
          tags: [op.kind],
          ...(op.activityType ? { "x-activity-type": op.activityType } : {}),
          ...(op.intentKey ? { "x-intent-key": op.intentKey } : {}),
          ...(op.resultKey ? { "x-result-key": op.resultKey } : {}),
          requestBody: { required: true, content: { "application/json": { schema: ref(op.request) } } },
          responses: {
            "200": { description: "OK", content: { "application/json": { schema: ref(op.response) } } },
            default: { description: "Error", content: { "application/json": { schema: ref("rpcStatus") } } },
          },
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "Wallet key-management emulator", version: "1" },
    servers: [{ url: "http://127.0.0.1:8787" }],
    paths,
    components: { schemas },
  };
}

function toSchema(shape: Shape, ref: (name: string) => Json): Json {
  switch (shape.kind) {
    case "ref":
      return ref(shape.name);
    case "string":
      return { type: "string", ...(shape.enum ? { enum: shape.enum } : {}), ...(shape.format ? { format: shape.format } : {}) };
    case "integer":
      return { type: "integer", ...(shape.format ? { format: shape.format } : {}) };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "array":
      return { type: "array", items: toSchema(shape.items, ref) };
    case "any":
      return {};
    case "object": {
      const properties: Record<string, Json> = {};
      for (const [k, v] of Object.entries(shape.properties)) properties[k] = toSchema(v, ref);
      return {
        type: "object",
        properties,
        ...(shape.required.length ? { required: shape.required } : {}),
        ...(shape.additional ? { additionalProperties: shape.additional === "any" ? true : toSchema(shape.additional, ref) } : {}),
      };
    }
  }
}
