/**
 * A software passkey for tests: a P-256 key with hand-built authenticator data, producing
 * the registration (attestation) and the `X-Stamp-Webauthn` assertion a browser would.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { encode } from "cbor-x";

const b64u = (b: Buffer | string) => Buffer.from(b).toString("base64url");

export class SoftwareAuthenticator {
  readonly rawId = randomBytes(16);
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  private readonly rpIdHash = createHash("sha256").update("localhost").digest();
  private signCount = 0;

  get credentialId(): string {
    return b64u(this.rawId);
  }

  /** v1AuthenticatorParamsV2 for create_authenticators / create_users / sub-orgs. */
  registration(name: string) {
    const challenge = b64u(randomBytes(32));
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    const cose = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.rawId.length);
    const authData = Buffer.concat([this.rpIdHash, Buffer.from([0x45]), Buffer.alloc(4), Buffer.alloc(16), idLen, this.rawId, encode(cose)]);
    const clientData = JSON.stringify({ type: "webauthn.create", challenge, origin: "http://localhost:3000" });
    return {
      authenticatorName: name,
      challenge,
      attestation: {
        credentialId: this.credentialId,
        clientDataJson: b64u(clientData),
        attestationObject: b64u(encode({ fmt: "none", attStmt: {}, authData })),
        transports: ["AUTHENTICATOR_TRANSPORT_INTERNAL" as const],
      },
    };
  }

  /** The X-Stamp-Webauthn header value for a request body. */
  stamp(body: string): string {
    const challenge = b64u(createHash("sha256").update(body).digest("hex"));
    const clientData = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin: "http://localhost:3000" }));
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++this.signCount);
    const authenticatorData = Buffer.concat([this.rpIdHash, Buffer.from([0x05]), count]);
    const signature = createSign("sha256").update(Buffer.concat([authenticatorData, createHash("sha256").update(clientData).digest()])).sign(this.keys.privateKey);
    return JSON.stringify({ authenticatorData: b64u(authenticatorData), clientDataJson: b64u(clientData), credentialId: this.credentialId, signature: b64u(signature) });
  }
}
