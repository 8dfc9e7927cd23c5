/**
 * Pages the wallet kit would load from the service's own domains, served by the emulator so a
 * front-end works offline: `GET /emulator/frames/export` stands for export.turnkey.com (set the
 * kit's `exportIframeUrl` to it). The page trusts this instance's signer key, written into it on
 * each request (it follows a state load or a reset). Plain static module beside it, no build.
 */
import express, { Router } from "express";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import { instancePublicKeys } from "../auth/instance-keys.js";
import type { Runtime } from "../runtime.js";

export const FRAME_ASSETS = join(packageRoot(), "emulator", "frames", "assets");

export function exportFramePage(signerPublicKey: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Export (Turnkey emulator)</title>
    <style>
      body { margin: 0; font-family: ui-monospace, monospace; }
      #secret { margin: 0; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
    </style>
  </head>
  <body>
    <p id="secret"></p>
    <script type="module">
      import { runExportFrame } from "./export-frame.js";
      runExportFrame({ signerPublicKey: ${JSON.stringify(signerPublicKey)}, output: document.getElementById("secret") });
    </script>
  </body>
</html>
`;
}

export function framesRouter(rt: Runtime): Router {
  const router = Router();
  router.get("/emulator/frames/export", (_req, res) => {
    res.setHeader("cache-control", "no-store");
    res.type("html").send(exportFramePage(instancePublicKeys(rt.keys).signerPublicKey));
  });
  router.use("/emulator/frames", express.static(FRAME_ASSETS, { index: false, setHeaders: (res) => res.setHeader("cache-control", "no-cache") }));
  return router;
}
