/** What the coverage family offers the root: its start option (`--coverage-out`), and reports merged and written for the test helpers' pool. */
export { mergeCoverage, type CoverageReport } from "./report.js";
export { writeCoverageFiles, type CoverageOptions } from "./files.js";
