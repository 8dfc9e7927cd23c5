/**
 * The coverage files: the report as JSON, and its summary beside it (`coverage.json` ->
 * `coverage.txt`). Written by `--coverage-out` when the emulator stops and by the test helpers
 * at teardown (one report merged from every instance). No emulator code: the helpers bundle it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { coverageSummary, type CoverageReport } from "./report.js";

/** The summary's file beside a report's: `coverage.json` -> `coverage.txt`, anything else gets `.txt` added. */
export const summaryPath = (file: string): string => (file.endsWith(".json") ? `${file.slice(0, -".json".length)}.txt` : `${file}.txt`);

/** Writes `report` to `file` (JSON) and its summary beside it; returns both paths. */
export function writeCoverageFiles(report: CoverageReport, file: string): { json: string; text: string } {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(summaryPath(file), coverageSummary(report));
  return { json: file, text: summaryPath(file) };
}

/** What startEmulator reads for coverage. */
export type CoverageOptions = {
  /** Write the coverage report (GET /emulator/v1/coverage) to this JSON file, and its summary beside it as `.txt`, when the emulator stops (`--coverage-out`). */
  coverageOut?: string;
};
