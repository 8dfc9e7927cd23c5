/**
 * The scenario file format (YAML, one flow per file), as a zod schema. The JSON Schema in
 * scenarios/scenario.schema.json is generated from it (scripts: see scenarios/README.md).
 */
import { z } from "zod";
import { operationNames } from "./operations.js";
import { invariantNames } from "./invariants/index.js";
import { CONTROL_ACTIONS, CONTROL_NAMES } from "./control.js";

const describe = <T extends z.ZodType>(schema: T, text: string): T => schema.describe(text);

/** A bound of a numeric matcher: a number, a decimal string, or a reference such as "${captures.x}". */
const numeric = z.union([z.number(), z.string().min(1)]);

export const fieldMatcherSchema = z
  .object({
    exists: describe(z.boolean(), "true: the path holds a value; false: it holds none").optional(),
    type: describe(z.enum(["string", "number", "boolean", "array", "object", "null"]), "JSON type of the value").optional(),
    equals: describe(z.unknown(), "deep equality with this (interpolated) value").optional(),
    regex: describe(z.string(), "the value (a string) matches this regular expression").optional(),
    format: describe(z.enum(["uuid", "hex", "decimal"]), "a common string format").optional(),
    oneOf: describe(z.array(z.unknown()), "the value equals one of these").optional(),
    equalsCaptured: describe(z.string(), "the value equals an earlier capture (NAME or NAME.path)").optional(),
    length: describe(z.number().int().nonnegative(), "array or string length").optional(),
    minLength: describe(z.number().int().nonnegative(), "minimum array or string length").optional(),
    contains: describe(z.unknown(), "the array has an element equal to this, or the string contains it").optional(),
    notContains: describe(z.unknown(), "the array has no element equal to this, or the string does not contain it").optional(),
    gt: describe(numeric, "the value (a number or decimal string) is greater than this (interpolated) number; decimal strings compare exactly").optional(),
    gte: describe(numeric, "the value is greater than or equal to this number").optional(),
    lt: describe(numeric, "the value is less than this number").optional(),
    lte: describe(numeric, "the value is less than or equal to this number").optional(),
  })
  .strict()
  .refine((m) => Object.keys(m).length > 0, { message: "a field matcher needs at least one check" });

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const expectationSchema = z
  .object({
    status: describe(z.number().int().min(100).max(599), "HTTP status (default 200)").optional(),
    code: describe(z.number().int().min(0).max(16), "rpcStatus code of an error response").optional(),
    activityStatus: describe(z.string().regex(/^ACTIVITY_STATUS_[A-Z_]+$/), "activity.status of a submit response").optional(),
    fields: describe(
      z.record(z.string(), z.union([fieldMatcherSchema, scalar, z.array(z.unknown())], { error: "expected a matcher object (exists, type, equals, regex, format, oneOf, equalsCaptured, length, minLength, contains, notContains, gt, gte, lt, lte), or a bare value to compare with" })),
      "JSON path -> matcher (a bare value means equals). Paths: a.b[0], list[key=value].x, list[*].x, $result.x, $intent.x",
    ).optional(),
  })
  .strict();

export const invariantCallSchema = z
  .object({
    check: describe(z.string().min(1), "a registered invariant, e.g. signatureVerifies, mnemonicDerives"),
    args: describe(z.record(z.string(), z.unknown()), "inputs; strings are interpolated (${response.x}, ${captures.y})").optional(),
  })
  .strict();

/** Kinds of step that call a public API operation. */
export const OPERATION_KINDS = ["submit", "query", "proxy"] as const;
/** Every kind of step: an operation, or a call to the emulator's control API (emulator-only scenarios). */
export const STEP_KINDS = [...OPERATION_KINDS, "control"] as const;

export const controlSchema = z
  .object(Object.fromEntries(CONTROL_NAMES.map((n) => [n, describe(CONTROL_ACTIONS[n].params, CONTROL_ACTIONS[n].description).optional()])) as { [K in keyof typeof CONTROL_ACTIONS]: z.ZodOptional<(typeof CONTROL_ACTIONS)[K]["params"]> })
  .strict()
  .refine((c) => Object.keys(c).length === 1, { message: `a control step names exactly one action (${CONTROL_NAMES.join(", ")})` });

/** Where a scenario can run: the emulator (embedded or by URL), a live deployment. */
export const TARGET_KINDS = ["emulator", "live"] as const;

export const stepSchema = z
  .object({
    name: describe(z.string().min(1), "what the step does"),
    submit: describe(z.string().min(1), "coordinator submit operation, e.g. create_users").optional(),
    query: describe(z.string().min(1), "coordinator query operation, e.g. get_user").optional(),
    proxy: describe(z.string().min(1), "auth proxy operation, e.g. otp_init").optional(),
    control: describe(controlSchema, "a call to the emulator's control API, e.g. { clock: { advanceMs: 2592000000 } }; only in scenarios with targets: [emulator]").optional(),
    as: describe(z.string().regex(/^(root|none|keys\.[A-Za-z0-9_-]+)$/, "expected root, none or keys.NAME"), "credential that stamps the request (default root)").optional(),
    organizationId: describe(z.string(), "organizationId of the request (default ${org.id})").optional(),
    params: describe(z.record(z.string(), z.unknown()), "submit: `parameters`; query: body fields beside organizationId; proxy: the body").optional(),
    body: describe(z.union([z.record(z.string(), z.unknown()), z.string()]), "the whole request body, sent instead of the envelope built from params").optional(),
    headers: describe(z.record(z.string(), z.string()), "extra request headers").optional(),
    expect: expectationSchema.optional(),
    capture: describe(z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.string().min(1)), "capture name -> JSON path in the response").optional(),
    invariants: z.array(invariantCallSchema).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const kinds = STEP_KINDS.filter((k) => s[k] !== undefined);
    if (kinds.length !== 1) ctx.addIssue({ code: "custom", message: `a step needs exactly one of submit, query, proxy, control (found ${kinds.length ? kinds.join(", ") : "none"})` });
    if (s.params !== undefined && s.body !== undefined) ctx.addIssue({ code: "custom", message: "give params or body, not both", path: ["body"] });
  });

export const scenarioSchema = z
  .object({
    $schema: z.string().optional(),
    name: describe(z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, "lowercase letters, digits, '-', '_', '.'"), "unique scenario name"),
    description: z.string().optional(),
    scope: describe(z.enum(["auto", "suborg", "root"]), "where it runs: a fresh sub-organization (suborg), the target's organization (root), or auto = suborg on URL targets, root on the embedded emulator").optional(),
    targets: describe(
      z.array(z.enum(TARGET_KINDS)).min(1),
      "where the scenario runs (default both): [emulator] makes it emulator-only; a run against a live deployment reports it skipped with the reason. Control steps need it",
    ).optional(),
    tags: z.array(z.string()).optional(),
    vars: describe(z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.unknown()), "values made once per run, e.g. { name: ${randomName} }").optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict();

export type FieldMatcher = z.infer<typeof fieldMatcherSchema>;
export type Expectation = z.infer<typeof expectationSchema>;
export type InvariantCall = z.infer<typeof invariantCallSchema>;
export type Step = z.infer<typeof stepSchema>;
export type Scenario = z.infer<typeof scenarioSchema>;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A scenario that says it runs on the emulator only (`targets: [emulator]`). */
export const emulatorOnly = (s: Pick<Scenario, "targets">): boolean => s.targets !== undefined && !s.targets.includes("live");
export type LoadedScenario = Scenario & { file: string };

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; [k: string]: unknown };

/**
 * The JSON Schema editors use (scenarios/scenario.schema.json is this, pretty-printed), with
 * what zod cannot say in JSON Schema added: operation and invariant names as enums, and
 * exactly one of submit / query / proxy / control per step.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioSchema, { target: "draft-2020-12", unrepresentable: "any", io: "input" }) as JsonSchema;
  const step = schema.properties!.steps!.items!;
  for (const kind of OPERATION_KINDS) step.properties![kind]!.enum = operationNames(kind).sort();
  step.oneOf = STEP_KINDS.map((k) => ({ required: [k] }));
  Object.assign(step.properties!.control!, { minProperties: 1, maxProperties: 1 });
  step.properties!.invariants!.items!.properties!.check!.enum = invariantNames();
  return { ...schema, $id: "https://turnkey-emulator.local/scenario.schema.json", title: "Contract scenario" };
}
