import { defineConfig } from "vitest/config";

const INCLUDE = ["emulator/**/*.test.ts", "contracts/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"];

/**
 * Files that change process-wide state (environment variables, global fetch, loader hooks,
 * spies, the module cache) run isolated: each in a fresh worker thread, with its own module
 * graph, globals and copy of process.env. Every other file runs in one of two long-lived
 * worker processes and shares that process's module graph with the files before it
 * (`isolate: false`), so the emulator and the SDKs are imported twice per run instead of once
 * per file. A new test that patches globals belongs in this list, unless it puts back what it
 * changed before it ends (files of one process run one after another): the sealing and
 * snapshot tests restore EMULATOR_SEALING_KEY after each test, the console spies are restored
 * (and vitest restores every mock after each file), embedded-wallet-app puts fetch back.
 */
const ISOLATED = [
  "test/trust/vite-plugin.test.ts", // sets NODE_ENV around Vite builds in this process
  "test/trust/webpack-plugin.test.ts", // sets NODE_ENV around webpack builds in this process
  "test/wallet-kit/**/*.test.ts", // sets VITE_* environment variables while it starts the example's dev server
  "emulator/core/lazy-module.test.ts", // drops a package from the require cache
];

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One Chromium for the run's browser files, started on the first one's request (see the file).
    globalSetup: ["test/browser/shared-browser.ts"],
    // Two cores. Vitest makes one pool per kind for the whole run and takes its isolation from
    // this root level, not from the projects: the shared project's processes are kept only
    // because forks.isolate is false here. The isolated project runs in the threads pool,
    // whose default (isolate: true) gives every file a new thread; one at a time beside the
    // two processes.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 2, isolate: false }, threads: { maxThreads: 1, minThreads: 1 } },
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED, pool: "threads" } },
      { extends: true, test: { name: "shared", include: INCLUDE, exclude: ["**/node_modules/**", ...ISOLATED], isolate: false } },
    ],
  },
});
