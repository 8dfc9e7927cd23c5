/**
 * Scalar schemas shared by the generated contracts. protobuf's JSON mapping accepts
 * 32-bit integers as numbers or decimal strings, and 64-bit integers as decimal strings
 * or numbers; requests are read leniently and normalised (int32 -> number, int64 -> string),
 * while the emulator always writes the canonical form.
 */
import { z } from "zod";

const decimal = z.string().regex(/^-?\d+$/, "expected an integer");

export const int32 = z.union([z.number().int(), decimal.transform(Number)]);
export const int64 = z.union([decimal, z.number().int().transform(String)]);
export const anyValue = z.unknown();

/** A schema built on its first read, then kept (the generated modules export their definitions so). */
export const lazy = <T>(build: () => T): (() => T) => {
  let built: T | undefined;
  return () => (built ??= build());
};
