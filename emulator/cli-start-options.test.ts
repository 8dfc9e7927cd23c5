import { describe, expect, it } from "vitest";
import { readStartOptions, START_OPTIONS, startOptionsUsage, StartOptionError } from "./cli-start-options.js";

describe("emulator start's options from flags and EMULATOR_* variables", () => {
  it("takes a flag, else its variable, else its default", () => {
    const none = readStartOptions([], {});
    expect([none.values.port, none.values.host, none.values.db, none.values.log]).toEqual(["8787", "127.0.0.1", undefined, undefined]);
    const env = { EMULATOR_PORT: "9000", EMULATOR_DB: "/data/emulator.db", EMULATOR_HOST: "0.0.0.0" };
    const fromEnv = readStartOptions([], env);
    expect([fromEnv.values.port, fromEnv.values.db, fromEnv.values.host]).toEqual(["9000", "/data/emulator.db", "0.0.0.0"]);
    expect(fromEnv.sources).toEqual({ port: "env", db: "env", host: "env" });
    const both = readStartOptions(["--port", "7000"], env);
    expect([both.values.port, both.sources.port, both.values.db]).toEqual(["7000", "flag", "/data/emulator.db"]);
  });

  it("reads a repeatable flag's variable as values separated by commas or spaces; the flag given replaces them all", () => {
    const env = { EMULATOR_ALLOW_HOST: "emulator, emulator.internal  tk.local", EMULATOR_CHAIN: "eip155:1=http://anvil:8545" };
    expect(readStartOptions([], env).values["allow-host"]).toEqual(["emulator", "emulator.internal", "tk.local"]);
    expect(readStartOptions([], env).values.chain).toEqual(["eip155:1=http://anvil:8545"]);
    expect(readStartOptions(["--allow-host", "a", "--allow-host", "b"], env).values["allow-host"]).toEqual(["a", "b"]);
  });

  it("reads a switch's variable as 1/true/yes/on or 0/false/no/off and refuses anything else, naming variable and flag", () => {
    for (const on of ["1", "true", "YES", "on"]) expect(readStartOptions([], { EMULATOR_LOG: on }).values.log, on).toBe(true);
    for (const off of ["0", "false", "No", "off"]) expect(readStartOptions([], { EMULATOR_TRUST_PROXY: off }).values["trust-proxy"], off).toBe(false);
    expect(() => readStartOptions([], { EMULATOR_LOG: "maybe" })).toThrow(new StartOptionError("EMULATOR_LOG=maybe: --log is a switch; give 1, true, yes or on (or 0, false, no, off), got maybe"));
  });

  it("reads --rate-limit bare, with a value, or from its variable (true: bare; false: not set)", () => {
    expect(readStartOptions(["--rate-limit", "--port", "0"], {}).values["rate-limit"]).toBe("true");
    expect(readStartOptions(["--rate-limit"], {}).values["rate-limit"]).toBe("true");
    expect(readStartOptions(["--rate-limit", "5"], {}).values["rate-limit"]).toBe("5");
    expect(readStartOptions([], { EMULATOR_RATE_LIMIT: "true" }).values["rate-limit"]).toBe("true");
    expect(readStartOptions([], { EMULATOR_RATE_LIMIT: "1" }).values["rate-limit"]).toBe("1");
    expect(readStartOptions([], { EMULATOR_RATE_LIMIT: "false" }).values["rate-limit"]).toBeUndefined();
  });

  it("ignores an empty variable; names the variable and its value in a refusal only when the value came from it", () => {
    expect(readStartOptions([], { EMULATOR_PORT: "" }).values.port).toBe("8787");
    const fromEnv = readStartOptions([], { EMULATOR_PORT: "http" });
    expect(fromEnv.refusal("port", "--port must be a whole number, got http")).toBe("EMULATOR_PORT=http: --port must be a whole number, got http");
    const fromFlag = readStartOptions(["--port", "http"], { EMULATOR_PORT: "9" });
    expect(fromFlag.refusal("port", "--port must be a whole number, got http")).toBe("--port must be a whole number, got http");
  });

  it("refuses an unknown flag and a positional argument; reports EMULATOR_ variables no option has", () => {
    expect(() => readStartOptions(["--prot", "1"], {})).toThrow(StartOptionError);
    expect(() => readStartOptions(["8787"], {})).toThrow(StartOptionError);
    const { unknownVariables } = readStartOptions([], { EMULATOR_PROT: "1", EMULATOR_SEALING_KEY: "00", EMULATOR_VALIDATE_RESPONSES: "1", EMULATOR_TRUST_FORCE: "1", EMULATOR_DB: "x" });
    expect(unknownVariables).toEqual(["EMULATOR_PROT"]);
  });

  it("lists every option in --help with its variable, in lines of at most 96 characters", () => {
    const usage = startOptionsUsage();
    expect(usage).toContain("  --port N         port to listen on (default 8787; 0 picks a free port) [env: EMULATOR_PORT]");
    expect(usage).toContain("  --export-on-exit FILE  write the state to FILE when stopped (SIGINT/SIGTERM)\n                   [env: EMULATOR_EXPORT_ON_EXIT]");
    expect(usage).toMatch(/--rate-limit \[N\] +enforce the service's rate limits/);
    for (const name of Object.keys(START_OPTIONS)) expect(usage).toContain(`[env: EMULATOR_${name.toUpperCase().replaceAll("-", "_")}]`);
    expect(Math.max(...usage.split("\n").map((l) => l.length))).toBeLessThanOrEqual(96);
  });

  it("gives an entry added to the table its flag, its variable and its --help line with no other change", () => {
    const table = { ...START_OPTIONS, "clock-mode": { value: "MODE", help: "frozen or ticking" } };
    expect(readStartOptions(["--clock-mode", "frozen"], {}, table).values).toMatchObject({ "clock-mode": "frozen" });
    expect(readStartOptions([], { EMULATOR_CLOCK_MODE: "ticking" }, table).values).toMatchObject({ "clock-mode": "ticking" });
    expect(startOptionsUsage(table)).toContain("  --clock-mode MODE  frozen or ticking [env: EMULATOR_CLOCK_MODE]");
  });
});
