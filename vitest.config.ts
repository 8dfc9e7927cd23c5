import { defineConfig } from "vitest/config";

const INCLUDE = ["emulator/**/*.test.ts", "contracts/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"];

/**
 * Files that change process-wide state (environment variables, global fetch, loader hooks,
 * spies, the module cache) run isolated: a fresh module graph each. Every other file shares
 * its worker's module graph with the files before it (`isolate: false`), so the emulator and
 * the SDKs are imported once per worker instead of once per file: module loading, not the
 * tests, was most of the suite's time (measured on 10 SDK end-to-end files: 128 s -> 60 s).
 * A new test that patches globals belongs in this list.
 */
const ISOLATED = [
  "test/trust/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/wallet-kit/**/*.test.ts", // sets VITE_* environment variables while it builds the example app
  "test/robustness/sealing.test.ts",
  "test/harness/cli.test.ts",
  "test/networks/lazy.test.ts",
  "test/fixtures/embedded-wallet-app.test.ts",
  "emulator/control/snapshots.test.ts",
  "emulator/http/errors.test.ts",
  "emulator/lazy-module.test.ts",
];

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the worker count small and predictable.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED } },
      { extends: true, test: { name: "shared", include: INCLUDE, exclude: ["**/node_modules/**", ...ISOLATED], isolate: false } },
    ],
  },
});
