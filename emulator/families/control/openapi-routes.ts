/**
 * The emulator's own HTTP routes (never part of the emulated service), described once: the
 * OpenAPI document at /openapi.json lists them beside the service's operations, and a test
 * checks that every mounted route is here, and every route here is mounted and in the
 * README's control API table.
 */

export type ControlRoute = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** OpenAPI form: `{id}` for a path parameter. */
  path: string;
  tag: string;
  summary: string;
  /** What the body holds (JSON unless said otherwise); absent: no body. */
  body?: string;
  /** What a success answers. */
  answers: string;
};

const route = (method: ControlRoute["method"], path: string, tag: string, summary: string, answers: string, body?: string): ControlRoute => ({
  method,
  path,
  tag,
  summary,
  answers,
  ...(body ? { body } : {}),
});

export const CONTROL_ROUTES: readonly ControlRoute[] = [
  route("GET", "/emulator/v1/info", "Emulator", "What this instance serves", "URLs, seeded organizations, root user, dev key pair, dev wallet, enclave public keys, chains"),
  route("POST", "/emulator/v1/reset", "Emulator", "Drop all state and seed the fixtures again", "the new info"),
  route("GET", "/emulator/v1/health", "Emulator", "Liveness", "{ok: true}"),
  route("GET", "/emulator/v1/mailbox", "Mailbox", "OTP codes, magic links and bundles sent to a contact (?contact=)", "{messages}, newest last"),
  route("GET", "/emulator/v1/oidc/.well-known/openid-configuration", "OIDC issuer", "The built-in OIDC issuer's discovery document", "an OpenID provider configuration"),
  route("GET", "/emulator/v1/oidc/jwks", "OIDC issuer", "The built-in OIDC issuer's signing keys", "a JWK set"),
  route("POST", "/emulator/v1/oidc/token", "OIDC issuer", "Mint an id_token", "{id_token}", "{iss?, sub, aud, email?, nonce?} (JSON or a form); iss: the built-in issuer (default) or a provider it stands in for"),
  route("POST", "/emulator/v1/oauth2/authorize", "OAuth2 providers", "The emulated X / Discord consent", "{code} for oauth2_authenticate", "{provider, clientId, redirectUri, codeChallenge, subject}"),
  route("GET", "/emulator/v1/auth-proxy", "Auth proxy", "An organization's auth-proxy configuration (?organizationId=)", "the configuration"),
  route("POST", "/emulator/v1/auth-proxy", "Auth proxy", "Enable, disable or update an organization's auth-proxy configuration", "the configuration", "{organizationId, enabled?, settings?}"),
  route("GET", "/emulator/v1/chains", "Chains", "The local chains and their RPC URLs", "{chains}"),
  route("POST", "/emulator/v1/chains/{caip2}/rpc", "Chains", "Standard JSON-RPC of a local chain (Ethereum or Solana)", "a JSON-RPC response", "a JSON-RPC request or batch"),
  route("POST", "/emulator/v1/chains/{caip2}/mine", "Chains", "Mine a block", "{blockNumber}"),
  route("POST", "/emulator/v1/chains/{caip2}/automine", "Chains", "Turn automine on or off", "{enabled}", "{enabled}"),
  route("POST", "/emulator/v1/chains/{caip2}/fund", "Chains", "Credit an address with the native asset or a token", "{balance}", "{address, amount, asset?}"),
  route("GET", "/emulator/v1/chains/{caip2}/holdings/{address}", "Chains", "What an address holds: the native coin, then each token with a balance", "{caip2, address, holdings: [{caip19, symbol, name, decimals, balance, display}]}"),
  route("GET", "/emulator/v1/clock", "Clock", "The emulated time", "{now, iso, offsetMs}"),
  route("POST", "/emulator/v1/clock", "Clock", "Set or advance the emulated time", "{now, iso, offsetMs}", "{set: ms or ISO 8601} or {advanceMs >= 0}"),
  route("POST", "/emulator/v1/snapshots", "Snapshots", "Take a snapshot of the whole state", "{id, name, createdAt, sizeBytes}", "{name?}"),
  route("GET", "/emulator/v1/snapshots", "Snapshots", "List snapshots", "{snapshots}"),
  route("POST", "/emulator/v1/snapshots/{id}/restore", "Snapshots", "Restore a snapshot (atomic)", "the snapshot"),
  route("DELETE", "/emulator/v1/snapshots/{id}", "Snapshots", "Forget a snapshot", "{}"),
  route("GET", "/emulator/v1/state", "Snapshots", "The whole state as one SQLite database file", "application/octet-stream"),
  route("PUT", "/emulator/v1/state", "Snapshots", "Replace the whole state with such a file (atomic)", "{}", "a SQLite database file (application/octet-stream)"),
  route("POST", "/emulator/v1/faults", "Faults", "Make an operation fail, slow down, drop or answer 429", "{id}", "{operation, count? or forMs?, error?, latencyMs?, drop?, status429?}"),
  route("GET", "/emulator/v1/faults", "Faults", "The faults in force", "{faults}"),
  route("DELETE", "/emulator/v1/faults", "Faults", "Clear every fault", "{}"),
  route("DELETE", "/emulator/v1/faults/{id}", "Faults", "Clear one fault", "{}"),
  route("GET", "/emulator/v1/requests", "Request log", "The last requests to the service (?path=&org=&status=&since=&limit=)", "{requests}, newest last"),
  route("DELETE", "/emulator/v1/requests", "Request log", "Empty the request log", "{}"),
  route("GET", "/emulator/v1/coverage", "Coverage", "Operations and activity versions called with their outcomes, policies evaluated, published operations never called (?format=text: the summary)", "the coverage report"),
  route("DELETE", "/emulator/v1/coverage", "Coverage", "Start counting coverage again", "{cleared: true}"),
  route("POST", "/emulator/v1/gas-station/limits", "Chains", "The gas station's usage limits for an organization", "the configuration", "{organizationId, orgWindowLimitUsd, subOrgWindowLimitUsd, windowDurationMinutes, enabled?}"),
  route("GET", "/emulator/v1/onramp/checkout/{id}", "Fiat on-ramp", "The emulated provider's checkout page that init_fiat_on_ramp's URL opens", "text/html"),
  route("POST", "/emulator/v1/onramp/checkout/{id}", "Fiat on-ramp", "Settle a checkout once (the page's form, or JSON)", "{transaction}", "{outcome?: COMPLETED | FAILED | CANCELLED, fiatAmount?, cryptoAmount?} (JSON or a form)"),
  route("GET", "/emulator/v1/onramp/transactions/{id}", "Fiat on-ramp", "An on-ramp transaction: status, amounts, the chain credited", "the transaction"),
  route("GET", "/emulator/v1/webhooks/deliveries", "Webhooks", "The webhook outbox (?status=&eventId=&endpointId=&organizationId=&limit=)", "{deliveries}: status, attempts, payload"),
  route("GET", "/emulator/v1/organizations", "Inspection", "Every organization as a tree, with counts", "{organizations}"),
  route("GET", "/emulator/v1/organizations/{id}", "Inspection", "One organization: quorum, features, users and credentials, wallets, keys, tags, policies, auth-proxy config", "the organization"),
  route("GET", "/emulator/v1/activities", "Inspection", "Activities of every organization, newest first (?organizationId=&type=&status=&userId=&limit=&before=)", "{activities, total, next, types}"),
  route("GET", "/emulator/v1/activities/{id}", "Inspection", "An activity with its policy evaluations and who may still vote", "the activity"),
  route("POST", "/emulator/v1/activities/{id}/approve", "Inspection", "Approve as a user of the organization, through the coordinator", "the activity", "{userId, apiPrivateKey?}"),
  route("POST", "/emulator/v1/activities/{id}/reject", "Inspection", "Reject as a user of the organization, through the coordinator", "the activity", "{userId, apiPrivateKey?}"),
  route("POST", "/emulator/v1/policies/evaluate", "Inspection", "Would this activity be allowed? The engine's decision, nothing recorded", "the decision with each policy's outcome", "{activity, userId, approverIds?}"),
  route("GET", "/emulator/v1/changes", "Inspection", "The state's version; with Accept: text/event-stream, a stream of change events", "{version}"),
];

type Operation = Record<string, unknown>;

const RPC_STATUS = { $ref: "#/components/schemas/rpcStatus" };

/** The routes as OpenAPI path items, tagged `x-emulator-control`. */
export function controlPathItems(): Record<string, Record<string, Operation>> {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const r of CONTROL_ROUTES) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    const binary = r.body?.includes("octet-stream");
    const op: Operation = {
      tags: [`Emulator: ${r.tag}`],
      summary: r.summary,
      operationId: `emulator_${r.method.toLowerCase()}_${r.path.replace(/^\/emulator\/v1\//, "").replace(/[^A-Za-z0-9]+/g, "_")}`,
      "x-emulator-control": true,
      ...(params.length ? { parameters: params } : {}),
      ...(r.body
        ? {
            requestBody: {
              description: r.body,
              content: binary ? { "application/octet-stream": { schema: { type: "string", format: "binary" } } } : { "application/json": { schema: { type: "object" } } },
            },
          }
        : {}),
      responses: {
        "200": { description: r.answers },
        default: { description: "an rpcStatus error", content: { "application/json": { schema: RPC_STATUS } } },
      },
    };
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  return paths;
}
