import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["emulator/**/*.test.ts", "contracts/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the worker count small and predictable.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
