#!/usr/bin/env node
// Runs the compiled CLI (built by `npm run build`, which `npm ci` runs through `prepare`).
import("../dist/bundle/cli.js").catch((err) => {
  if (err && err.code === "ERR_MODULE_NOT_FOUND" && String(err.message).includes("dist/bundle/cli.js")) {
    console.error("The emulator is not built yet: run `npm run build` (npm ci does it for you).");
    process.exit(1);
  }
  throw err;
});
