/**
 * Pages the wallet kit would load from the service's own domains, served by the emulator so a
 * front-end works offline: `GET /emulator/frames/export` stands for export.turnkey.com and
 * `GET /emulator/frames/import` for import.turnkey.com (the kit's `exportIframeUrl` and
 * `importIframeUrl`). Each page trusts this instance's signer key, written into it on
 * each request (it follows a state load or a reset). Plain static module beside it, no build.
 */
import express, { Router, type Request, type RequestHandler, type Response } from "express";
import { join } from "node:path";
import { packageRoot } from "../../core/package-root.js";
import { instancePublicKeys } from "../../core/auth/instance-keys.js";
import type { Runtime } from "../../core/runtime.js";
import { underPath } from "../../core/http/path-scope.js";

export const FRAME_ASSETS = join(packageRoot(), "emulator", "frames", "assets");

const STYLE = `
      body { margin: 0; font-family: ui-monospace, monospace; }
      #secret { margin: 0; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
      #plaintext { box-sizing: border-box; width: 100%; height: 100vh; margin: 0; padding: 8px; border: 0; resize: none; font: inherit; }`;

/** The export page: the secret appears in #secret. */
export function exportFramePage(signerPublicKey: string): string {
  return page("Export", '<p id="secret"></p>', `import { runExportFrame } from "./export-frame.js";
      runExportFrame({ signerPublicKey: ${JSON.stringify(signerPublicKey)}, output: document.getElementById("secret") });`);
}

/** The import page: the user types the mnemonic or key into #plaintext. */
export function importFramePage(signerPublicKey: string): string {
  return page("Import", '<textarea id="plaintext" autocomplete="off" spellcheck="false" aria-label="Secret to import"></textarea>', `import { runImportFrame } from "./import-frame.js";
      runImportFrame({ signerPublicKey: ${JSON.stringify(signerPublicKey)}, input: document.getElementById("plaintext") });`);
}

function page(title: string, body: string, script: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title} (Turnkey emulator)</title>
    <style>${STYLE}
    </style>
  </head>
  <body>
    ${body}
    <script type="module">
      ${script}
    </script>
  </body>
</html>
`;
}

/** The frames' pages and files; any other path passes on at once (`underPath`). */
export function framesRouter(rt: Runtime): RequestHandler {
  const router = Router();
  const serve = (render: (signer: string) => string) => (_req: Request, res: Response) => {
    res.setHeader("cache-control", "no-store");
    res.type("html").send(render(instancePublicKeys(rt.keys).signerPublicKey));
  };
  router.get("/emulator/frames/export", serve(exportFramePage));
  router.get("/emulator/frames/import", serve(importFramePage));
  router.use("/emulator/frames", express.static(FRAME_ASSETS, { index: false, setHeaders: (res) => res.setHeader("cache-control", "no-cache") }));
  return underPath("/emulator/frames", router);
}
