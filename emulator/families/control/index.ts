/** What the control family offers the root: its start options (`--log`, `--rate-limit`, `--state`, `--export-on-exit`, ...). */
export type { ControlOptions } from "./state.js";
