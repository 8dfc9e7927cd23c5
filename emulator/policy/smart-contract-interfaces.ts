/** Smart contract interfaces: the uploaded ABI text as the policy engine decodes calls with it. */
import { lazyModule } from "../core/lazy-module.js";
import type { Abi } from "viem";
import { invalidArgument } from "../core/errors.js";

const viem = lazyModule<typeof import("viem/utils")>("viem/utils");

/** The ABI of an uploaded interface (a JSON ABI, `{abi: [...]}`, or human-readable signatures one per line), or a 400 naming the field. */
export function parseInterface(type: string, text: string, field: string): Abi {
  if (type !== "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM") {
    throw invalidArgument(`${type} interfaces are stored but only Ethereum ABIs are decoded by the emulator`, field);
  }
  try {
    const parsed = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed as Abi;
    if (Array.isArray(parsed?.abi)) return parsed.abi as Abi;
    throw new Error("expected a JSON ABI array");
  } catch (e) {
    try {
      return viem.parseAbi(text.split("\n").filter((l) => l.trim()));
    } catch {
      throw invalidArgument(`invalid smart contract interface: ${(e as Error).message}`, field);
    }
  }
}
