import { describe, expect, it } from "vitest";
import { ed25519 } from "@noble/curves/ed25519.js";
import { Store } from "../../core/store/index.js";
import { getMeta } from "../../core/store/db.js";
import { jwksOf, signDelivery, signedInput, loadSigningKey } from "./signing-key.js";

describe("webhook signing key", () => {
  it("signs v1.ed25519.<kid>.<ts>.<event>.<body>; an independent Ed25519 verifier (noble) accepts it with the JWKS key", () => {
    const store = Store.open();
    const key = loadSigningKey(store);
    const body = '{"id":"a","status":"ACTIVITY_STATUS_COMPLETED"}';
    const sig = signDelivery(key, "1800000000000", "evt-1", body);
    expect(sig).toMatch(/^[0-9a-f]{128}$/);
    const [jwk] = jwksOf(key).keys;
    const pub = Buffer.from(jwk!.x!, "base64url");
    const message = Buffer.from(`v1.ed25519.${jwk!.kid}.1800000000000.evt-1.${body}`, "utf8");
    expect(signedInput(key.kid, "1800000000000", "evt-1", body).equals(message)).toBe(true);
    expect(ed25519.verify(Buffer.from(sig, "hex"), message, pub)).toBe(true);
    expect(ed25519.verify(Buffer.from(sig, "hex"), Buffer.from(message.toString().replace("evt-1", "evt-2")), pub)).toBe(false);
    store.close();
  });

  it("is made once per state, kept sealed (the private half never in clear), and the same after a reset", () => {
    const store = Store.open();
    const key = loadSigningKey(store);
    const stored = getMeta(store.db, "webhook_signing_key")!;
    const d = key.privateKey.export({ format: "jwk" }).d!;
    expect(stored).not.toContain(d);
    expect(stored).not.toContain(Buffer.from(d, "base64url").toString("hex"));
    store.clear();
    expect(loadSigningKey(store).kid).toBe(key.kid);
    // Another Store on the same image (a restore) reads the same key back through the sealer.
    const copy = new Store(new (store.db.constructor as new (b: Buffer) => Store["db"])(store.image()));
    expect(jwksOf(loadSigningKey(copy))).toEqual(jwksOf(key));
    copy.close();
    store.close();
  });
});
