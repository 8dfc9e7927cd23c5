/** The service's curve enum (`v1Curve`). */
export const CURVES = ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"] as const;
export type Curve = (typeof CURVES)[number];

export function isCurve(x: unknown): x is Curve {
  return typeof x === "string" && (CURVES as readonly string[]).includes(x);
}
