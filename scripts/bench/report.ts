/**
 * The figures of a benchmark run: each one printed as it is measured, next to its same-run
 * baseline and the issue's goal, and gathered for the summary table `npm run bench` prints
 * at the end.
 */
export type Figure = {
  section: string;
  name: string;
  /** The measured value, formatted with its unit. */
  value: string;
  /** The same-run baseline it is compared with (formatted), if any. */
  baseline?: string;
  /** The goal, in words ("<= 300 ms", ">= 0.5x"). */
  goal?: string;
  /** Whether the goal is met; undefined when there is no goal. */
  met?: boolean;
};

const figures: Figure[] = [];

export function figure(f: Figure): void {
  figures.push(f);
  const parts = [`${f.name.padEnd(52)} ${f.value}`];
  if (f.baseline) parts.push(`baseline ${f.baseline}`);
  if (f.goal) parts.push(`goal ${f.goal}: ${f.met ? "met" : "NOT met"}`);
  console.log(parts.join("  |  "));
}

export function printSummary(): void {
  if (!figures.length) return;
  console.log(`\n# summary (${figures.length} figures; ${figures.filter((f) => f.goal).length} with a goal, ${figures.filter((f) => f.met === false).length} not met)\n`);
  let section = "";
  for (const f of figures) {
    if (f.section !== section) console.log(`[${(section = f.section)}]`);
    const goal = f.goal ? `${f.met ? "met    " : "NOT met"} (goal ${f.goal})` : "";
    console.log(`  ${f.name.padEnd(52)} ${f.value.padEnd(26)} ${goal}${f.baseline ? `  baseline ${f.baseline}` : ""}`);
  }
}

export const ms = (x: number, d = 0) => `${x.toFixed(d)} ms`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
export const ratio = (x: number) => `${x.toFixed(2)}x`;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The median with an even count taken as the mean of the two middle values (for figures from a few paired rounds). */
export const midpointMedian = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/**
 * A 95% bootstrap interval of `stat` over `xs` (2000 resamples, percentile method), from a fixed
 * seed so that the same numbers give the same interval: how far the figure could move if the
 * rounds were run again.
 */
export function bootstrapInterval(xs: number[], stat: (xs: number[]) => number): [number, number] {
  let seed = 0x9e3779b9;
  const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const stats = Array.from({ length: 2000 }, () => stat(xs.map(() => xs[Math.floor(rand() * xs.length)]!))).sort((a, b) => a - b);
  return [stats[Math.floor(0.025 * stats.length)]!, stats[Math.ceil(0.975 * stats.length) - 1]!];
}

/** `--quick` (or BENCH_QUICK=1): smaller sizes and fewer runs, so that every section runs in a few minutes. */
export const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
