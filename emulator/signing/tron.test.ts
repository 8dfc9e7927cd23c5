import { utils } from "tronweb";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { signTronTransaction } from "./tron.js";
import { SECP_KEY, SECP_KEY_HEX } from "./test-keys.fixture.js";

const ownerBase58 = utils.address.fromPrivateKey(SECP_KEY_HEX) as string;
const ownerHex = utils.address.toHex(ownerBase58);

function transferTx() {
  const tx = {
    raw_data: {
      contract: [
        {
          parameter: {
            value: { amount: 1000, owner_address: ownerHex, to_address: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c" },
            type_url: "type.googleapis.com/protocol.TransferContract",
          },
          type: "TransferContract",
        },
      ],
      ref_block_bytes: "abcd",
      ref_block_hash: "0123456789abcdef",
      expiration: 1700000000000,
      timestamp: 1699999940000,
    },
  };
  const pb = utils.transaction.txJsonToPb(tx);
  return { pb, rawDataHex: utils.transaction.txPbToRawDataHex(pb) as string, txID: (utils.transaction.txPbToTxID(pb) as string).replace(/^0x/, "") };
}

describe("signTronTransaction", () => {
  it("returns the Transaction protobuf with TronWeb's signature for raw_data_hex", () => {
    const { pb, rawDataHex, txID } = transferTx();
    const out = signTronTransaction(SECP_KEY, rawDataHex);
    expect(out).toMatch(/^[0-9a-f]+$/);

    // Decode with TronWeb's own generated protobuf class.
    const decoded = pb.constructor.deserializeBinary(Buffer.from(out, "hex"));
    expect(Buffer.from(decoded.getRawData().serializeBinary()).toString("hex")).toBe(rawDataHex.toLowerCase());
    const sigs: Uint8Array[] = decoded.getSignatureList_asU8();
    expect(sigs).toHaveLength(1);
    const sigHex = Buffer.from(sigs[0]!).toString("hex");

    // TronWeb signs the same txID with the same deterministic ECDSA: identical r‖s‖v (v = 1b/1c).
    const tronSigned = utils.crypto.signTransaction(SECP_KEY_HEX, { txID, raw_data_hex: rawDataHex, signature: undefined } as never) as {
      signature: string[];
    };
    expect(sigHex).toBe(tronSigned.signature[0]!.toLowerCase());
    expect(["1b", "1c"]).toContain(sigHex.slice(128));

    // And the signer recovered from txID is the owner address.
    expect(utils.crypto.ecRecover(txID, sigHex).toLowerCase()).toBe(ownerHex.toLowerCase());
  });

  it("rejects a bad raw_data_hex", () => {
    for (const [input, text] of [["", /empty/], ["0a0", /odd/], ["xx", /not valid hex/]] as const) {
      let err: unknown;
      try {
        signTronTransaction(SECP_KEY, input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(text);
    }
  });
});
