/**
 * The QOS manifest a TVC deployment carries (`v1TvcManifest.manifest`: raw UTF-8 JSON bytes).
 * The emulator writes it in QuorumOS's JSON form (namespace, pivot, manifestSet, shareSet,
 * enclave, patchSet; keys hex, camelCase) from the deployment request and the app's operator
 * sets, so tools that read the manifest back (an operator reviewing what to approve) see what
 * the deployment asked for.
 *
 * What the emulator cannot know it does not invent: no enclave image is built, so the
 * expected PCR measurements are zero (as a debug-mode deployment's are) and no AWS root
 * certificate is pinned; `qosCommit` records the requested QOS version.
 */

export type ManifestMember = { alias: string; pubKey: string };
export type ManifestQuorumSet = { threshold: number; members: ManifestMember[] };

export type ManifestInput = {
  namespace: { name: string; nonce: number; quorumKey: string };
  pivot: { hash: string; args: string[]; debugMode: boolean };
  manifestSet: ManifestQuorumSet;
  shareSet: ManifestQuorumSet;
  qosVersion: string;
};

/** A PCR (SHA-384 sized) with no measurement behind it. */
const UNMEASURED_PCR = "00".repeat(48);

/** The manifest's JSON text: deterministic for a given input (key order fixed). */
export function writeManifest(m: ManifestInput): string {
  return JSON.stringify({
    namespace: { name: m.namespace.name, nonce: m.namespace.nonce, quorumKey: m.namespace.quorumKey },
    pivot: { hash: m.pivot.hash, restart: "Always", bridgeConfig: [], debugMode: m.pivot.debugMode, args: m.pivot.args },
    manifestSet: m.manifestSet,
    shareSet: m.shareSet,
    enclave: { pcr0: UNMEASURED_PCR, pcr1: UNMEASURED_PCR, pcr2: UNMEASURED_PCR, pcr3: UNMEASURED_PCR, awsRootCertificate: "", qosCommit: m.qosVersion },
    patchSet: { threshold: 0, members: [] },
  });
}

/** The wire form of the manifest bytes (`format: byte`): base64 of the UTF-8 JSON. */
export const manifestBytesBase64 = (manifest: string): string => Buffer.from(manifest, "utf8").toString("base64");
