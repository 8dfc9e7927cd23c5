import { describe, expect, it } from "vitest";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { parseApiKeyStamp, verifyApiKeyStamp, verifyApiKeyStampOffThread } from "./stamp.js";

async function stamped(body: string) {
  const sk = p256.utils.randomSecretKey();
  const stamper = new ApiKeyStamper({ apiPublicKey: bytesToHex(p256.getPublicKey(sk, true)), apiPrivateKey: bytesToHex(sk) });
  return parseApiKeyStamp((await stamper.stamp(body)).stampHeaderValue);
}

describe("API-key stamp verification on the thread pool", () => {
  it("accepts what the official stamper signs and refuses a changed body, a foreign key or a malformed signature, as the inline check does", async () => {
    const body = JSON.stringify({ organizationId: "x", parameters: { n: 1 } });
    const stamp = await stamped(body);
    const other = await stamped(body);
    const cases: [typeof stamp, string][] = [
      [stamp, body],
      [stamp, body.replace("1", "2")],
      [{ ...stamp, publicKey: other.publicKey }, body],
      [{ ...stamp, signature: "zz" }, body],
      [{ ...stamp, signature: stamp.signature.slice(2) }, body],
      [{ ...stamp, publicKey: "02" + "00".repeat(32) }, body],
    ];
    const offThread = await Promise.all(cases.map(([s, b]) => verifyApiKeyStampOffThread(s, Buffer.from(b))));
    expect(offThread).toEqual([true, false, false, false, false, false]);
    expect(cases.map(([s, b]) => verifyApiKeyStamp(s, Buffer.from(b)))).toEqual(offThread);
  });
});
