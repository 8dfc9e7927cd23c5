/**
 * The OpenAPI document the emulator serves at /openapi.json: the generated contract
 * document, with this instance's URL and, on every operation, whether the emulator
 * emulates it (`x-emulated`) and why not (`x-not-emulated-because`); and the emulator's own
 * control routes (`x-emulator-control`, control/openapi-routes.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../core/package-root.js";
import { coordinator, proxy } from "../../../contracts/index.js";
import type { Registry } from "../../core/vocabulary/define.js";
import { controlPathItems } from "./openapi-routes.js";

type Doc = { servers?: { url: string }[]; paths: Record<string, Record<string, Record<string, unknown>>> };

let annotated: string | undefined;

function build(registry: Pick<Registry, "entryFor" | "notEmulatedReason">): string {
  const doc = JSON.parse(readFileSync(join(packageRoot(), "contracts", "generated", "openapi.json"), "utf8")) as Doc;
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = coordinator[path] ?? proxy[path];
    const post = item.post;
    if (!op || !post) continue;
    const emulated = !!registry.entryFor(op.kind, op.name);
    post["x-emulated"] = emulated;
    if (!emulated) post["x-not-emulated-because"] = registry.notEmulatedReason(op.name);
  }
  Object.assign(doc.paths, controlPathItems());
  return JSON.stringify(doc);
}

/** The document as served by the emulator at its base URL; the catalog is the same for every instance. */
export function openApiDocument(rt: { urls: { baseUrl: string }; registry: Pick<Registry, "entryFor" | "notEmulatedReason"> }): string {
  annotated ??= build(rt.registry);
  return annotated.replace("http://127.0.0.1:8787", rt.urls.baseUrl);
}
