/**
 * The web UI at `/emulator/ui/`: static files (hand-written ES modules, one stylesheet, no
 * build step) from emulator/ui/assets, read from the package root so the installed package
 * serves them too. The page reads only the control API under /emulator/v1/.
 *
 * The files (about 65 KB) are read once and answered from memory with an ETag; the page
 * carries its stylesheet inline, so the first paint needs no second request.
 */
import { Router, type Request, type RequestHandler, type Response, type NextFunction } from "express";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { packageRoot } from "../../core/package-root.js";
import { underPath } from "../../core/http/path-scope.js";

export const UI_ASSETS = join(packageRoot(), "emulator", "ui", "assets");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

type Asset = { body: Buffer; type: string; etag: string };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

const STYLESHEET_LINK = '<link rel="stylesheet" href="./app.css">';

/** Every asset by its path under /emulator/ui/ ("app.js", "tabs/activities.js"); index.html with app.css inline. */
export function loadAssets(dir = UI_ASSETS): Map<string, Asset> {
  const raw = new Map(filesUnder(dir).map((f) => [relative(dir, f).split(sep).join("/"), readFileSync(f)]));
  const css = raw.get("app.css");
  const index = raw.get("index.html");
  if (index && css) raw.set("index.html", Buffer.from(index.toString("utf8").replace(STYLESHEET_LINK, `<style>\n${css.toString("utf8")}</style>`)));
  const assets = new Map<string, Asset>();
  for (const [path, body] of raw) {
    const type = TYPES[extname(path)];
    if (type) assets.set(path, { body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` });
  }
  return assets;
}

/** The web UI's files; any other path passes on at once (`underPath`). */
export function uiRouter(): RequestHandler {
  const router = Router();
  let assets: Map<string, Asset> | undefined;
  // The page's relative asset URLs need the trailing slash.
  router.get("/emulator/ui", (req, res, next) => (req.originalUrl.split("?")[0]!.endsWith("/") ? next() : res.redirect(301, "/emulator/ui/")));
  router.use("/emulator/ui", (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    assets ??= loadAssets();
    const asset = assets.get(req.path === "/" ? "index.html" : req.path.slice(1));
    if (!asset) return next();
    // no-cache: the browser revalidates (a 304 by ETag), so a new emulator version is never served stale.
    res.setHeader("cache-control", "no-cache");
    res.setHeader("etag", asset.etag);
    res.setHeader("x-content-type-options", "nosniff");
    if (req.headers["if-none-match"] === asset.etag) {
      res.status(304).end();
      return;
    }
    res.type(asset.type).send(asset.body);
  });
  return underPath("/emulator/ui", router);
}
