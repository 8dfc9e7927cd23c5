/**
 * The web UI at `/emulator/ui/`: static files (hand-written ES modules, one stylesheet, no
 * build step) from emulator/ui/assets, read from the package root so the installed package
 * serves them too. The page reads only the control API under /emulator/v1/.
 */
import express, { Router } from "express";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";

export const UI_ASSETS = join(packageRoot(), "emulator", "ui", "assets");

export function uiRouter(): Router {
  const router = Router();
  // The page's relative asset URLs need the trailing slash.
  router.get("/emulator/ui", (req, res, next) => (req.originalUrl.split("?")[0]!.endsWith("/") ? next() : res.redirect(301, "/emulator/ui/")));
  // no-cache: the browser revalidates (cheap, ETag) so a new emulator version is never served stale.
  router.use("/emulator/ui", express.static(UI_ASSETS, { index: "index.html", cacheControl: true, setHeaders: (res) => res.setHeader("cache-control", "no-cache") }));
  return router;
}
