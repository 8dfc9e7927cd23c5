/**
 * Every control route the emulator mounts is described in emulator/families/control/openapi-routes.ts, served
 * in /openapi.json, and has a row in the README's control API table; nothing is described
 * that is not mounted.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Express } from "express";
import { createApp } from "../../emulator/core/http/app.js";
import { families } from "../../emulator/families.js";
import { CONTROL_ROUTES } from "../../emulator/families/control/openapi-routes.js";
import { useTestEmulator } from "../use-test-emulator.js";

type Layer = { route?: { path: unknown; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/** "METHOD /path/{param}" for every route express would serve under the emulator's own prefixes. */
function mountedRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const l of stack) {
      if (l.route && typeof l.route.path === "string") {
        for (const m of Object.keys(l.route.methods)) out.push(`${m.toUpperCase()} ${l.route.path.replace(/:(\w+)/g, "{$1}")}`);
      } else if (l.handle?.stack) walk(l.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out.filter((r) => / \/emulator\/v1\//.test(r));
}

const emu = useTestEmulator();

describe("the control API is described", () => {
  it("every mounted /emulator/v1 route is in CONTROL_ROUTES, and every described route is mounted", () => {
    const app = createApp(emu.runtime, families, { info: () => emu.info, reset: () => undefined });
    const mounted = new Set(mountedRoutes(app));
    const described = new Set(CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`));
    expect([...mounted].filter((r) => !described.has(r)), "mounted but not described").toEqual([]);
    expect([...described].filter((r) => !mounted.has(r)), "described but not mounted").toEqual([]);
  });

  it("/openapi.json lists them beside the service's operations", async () => {
    const doc = (await (await fetch(`${emu.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { "x-emulator-control"?: boolean; summary?: string }>> };
    for (const r of CONTROL_ROUTES) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op!["x-emulator-control"]).toBe(true);
      expect(op!.summary).toBe(r.summary);
    }
    expect(doc.paths["/public/v1/query/whoami"]?.post).toBeDefined();
  });

  it("the README's control API table has a row for each route", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const rows = readme.split("\n").filter((l) => l.startsWith("| `"));
    // A row names its route first: "| `METHOD /path?query` |"; parameter names may differ ({id}, {transactionId}).
    const shape = (path: string) => path.replace(/\{\w+\}/g, "{}");
    const documented = new Set(rows.map((row) => /^\| `(GET|POST|PUT|DELETE) ([^`?\s]+)/.exec(row)).filter((m) => m).map((m) => `${m![1]} ${shape(m![2]!)}`));
    const missing = CONTROL_ROUTES.filter((r) => !documented.has(`${r.method} ${shape(r.path)}`)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
