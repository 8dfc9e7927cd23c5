import { describe, expect, it } from "vitest";
import { posix } from "node:path";
import { loadAssets } from "./ui-routes.js";

describe("UI assets", () => {
  const assets = loadAssets();
  const text = (p: string) => assets.get(p)!.body.toString("utf8");
  const modules = [...assets.keys()].filter((p) => p.endsWith(".js"));

  it("serves the page with its stylesheet inline", () => {
    const html = text("index.html");
    expect(html).toContain("<style>");
    expect(html).toContain(text("app.css").trim().split("\n")[0]);
    expect(html).not.toContain('href="./app.css"');
    expect(assets.get("index.html")!.type).toContain("text/html");
  });

  it("has every module a module imports, and preloads every module (no import waterfall)", () => {
    let imports = 0;
    for (const m of modules) {
      for (const [, spec] of text(m).matchAll(/^import [^;]*? from "(\.[^"]+)";$/gm)) {
        const target = posix.normalize(posix.join(posix.dirname(m), spec!));
        expect(assets.has(target), `${m} imports ${spec}`).toBe(true);
        imports++;
      }
    }
    expect(imports).toBeGreaterThan(modules.length); // the pattern does find the imports
    const preloaded = [...text("index.html").matchAll(/rel="modulepreload" href="\.\/([^"]+)"/g)].map((x) => x[1]);
    expect(preloaded.sort()).toEqual([...modules].sort());
  });

  it("never writes HTML from data: no innerHTML or insertAdjacentHTML in the modules", () => {
    for (const m of modules) expect(text(m), m).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("gives each file a content type and a content-derived ETag", () => {
    for (const [path, a] of assets) {
      expect(a.type, path).toMatch(/^(text|image)\//);
      expect(a.etag, path).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    }
    expect(new Set([...assets.values()].map((a) => a.etag)).size).toBe(assets.size);
  });
});
