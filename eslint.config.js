// Lint: ESLint's and typescript-eslint's recommended rules, syntax-only, everywhere; plus the
// two promise rules, which need type information, on the TypeScript of emulator/ and test/.
// Type information costs one TypeScript program (~40 of a cold run's ~55 CPU seconds, about
// the same with test/ left out); --cache skips it when no file changed, but then does not see a
// file whose imports changed type. `npm run typecheck` (tsc --noEmit) does the type checking.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["dist/", "coverage/", "contracts/generated/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  {
    rules: {
      // A leading underscore marks a binding kept on purpose; dropping fields with a rest pattern is fine.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // The wire checks and the XML report match control characters on purpose.
      "no-control-regex": "off",
    },
  },
  {
    // A promise nobody awaits loses its rejection (an unhandled rejection ends the process), and
    // one handed where a void callback is expected (an event listener, a node:http handler) is
    // never awaited by the caller; Express 5 does await its handlers' promises, so those pass.
    // Fire-and-forget is marked with `void`.
    files: ["emulator/**/*.ts", "test/**/*.ts"],
    ignores: ["**/*.d.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // Tests, their helpers and the benchmarks read arbitrary JSON answers; production code stays free of `any`.
    files: ["**/*.test.ts", "test/**", "scripts/bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Known `any` left in production code, to be typed by the operation registry (issue 11).
    files: ["emulator/proxy/forward.ts", "contracts/harness/run.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The emulator UI's modules run in the browser (served as they are, no build step).
    files: ["emulator/ui/assets/**"],
    languageOptions: { globals: globals.browser },
  },
  {
    // A page bundled by Vite in the trust tests runs in a browser.
    files: ["test/trust/fixtures/vite-app/**"],
    languageOptions: { globals: globals.browser },
  },
);
