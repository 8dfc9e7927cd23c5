/**
 * A bad value of 1 MiB in a string id, an array element or a nested field, through the
 * HTTP API: the answer is the service's error in {code, message, details} shape, under 4 KiB,
 * naming the field, and quotes the value once, cut to its first 200 characters and its length.
 */
import { describe, expect, it } from "vitest";
import { devKey, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { send } from "./send.js";

const emu = useTestEmulator();
const MiB = 1 << 20;
const LONG = "a".repeat(MiB);
const HEAD = "a".repeat(200);

type Case = { name: string; path: string; body: () => unknown; field: string; status?: number };
const eth = (path: string) => ({ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path, addressFormat: "ADDRESS_FORMAT_ETHEREUM" });
const orgId = () => emu.info.organizationId;
const activity = (type: string, parameters: unknown) => JSON.parse(submitBody(emu, type, parameters)) as unknown;

const CASES: Case[] = [
  { name: "a string id (get_wallet walletId)", path: "/public/v1/query/get_wallet", body: () => ({ organizationId: orgId(), walletId: LONG }), field: "walletId" },
  { name: "a string id (list_wallet_accounts walletId)", path: "/public/v1/query/list_wallet_accounts", body: () => ({ organizationId: orgId(), walletId: LONG }), field: "walletId" },
  { name: "an array element (delete_wallets walletIds[1])", path: "/public/v1/submit/delete_wallets", body: () => activity("ACTIVITY_TYPE_DELETE_WALLETS", { walletIds: [emu.info.walletId, LONG] }), field: "parameters.walletIds[1]" },
  { name: "an array element (delete_users userIds[0])", path: "/public/v1/submit/delete_users", body: () => activity("ACTIVITY_TYPE_DELETE_USERS", { userIds: [LONG] }), field: "parameters.userIds" },
  { name: "a nested field (create_wallet accounts[0].path)", path: "/public/v1/submit/create_wallet", body: () => activity("ACTIVITY_TYPE_CREATE_WALLET", { walletName: "long path", accounts: [eth(LONG)] }), field: "parameters.accounts[0].path" },
  { name: "a nested field, one long path segment (accounts[0].path)", path: "/public/v1/submit/create_wallet", body: () => activity("ACTIVITY_TYPE_CREATE_WALLET", { walletName: "long segment", accounts: [eth(`m/${LONG}`)] }), field: "parameters.accounts[0].path" },
  { name: "a nested enum (create_wallet accounts[0].curve)", path: "/public/v1/submit/create_wallet", body: () => activity("ACTIVITY_TYPE_CREATE_WALLET", { walletName: "long curve", accounts: [{ ...eth("m/44'/60'/0'/0/0"), curve: LONG }] }), field: "parameters.accounts[0].curve" },
  { name: "a signWith that names nothing (404)", path: "/public/v1/submit/sign_raw_payload", body: () => activity("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: LONG, payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_SHA256" }), field: "parameters.signWith", status: 404 },
];

type Rpc = { code: number; message: string; details: { "@type": string; fieldViolations?: { field: string; description: string }[] }[] };

describe("1 MiB values in requests", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const answer = await send(emu.url, c.path, Buffer.from(JSON.stringify(c.body())), { kind: "stamp", key: devKey(emu) });
      expect(answer.status, answer.text.slice(0, 300)).toBe(c.status ?? 400);
      expect(answer.contentType).toContain("application/json");
      expect(Buffer.byteLength(answer.text), answer.text.slice(0, 300)).toBeLessThan(4096);
      const json = JSON.parse(answer.text) as Rpc;
      expect(Object.keys(json).sort()).toEqual(["code", "details", "message"]);
      expect(json.code).toBe(c.status === 404 ? 5 : 3);
      // Named: as the field violation (400), or in the message (404 has no violation).
      const fields = json.details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
      if (c.status === 404) expect(json.message).toContain("signWith");
      else expect(fields.some((f) => f.startsWith(c.field)), JSON.stringify(fields).slice(0, 300)).toBe(true);
      // Quoted once, bounded: the value's first 200 characters and its length.
      const heads = answer.text.split(HEAD).length - 1;
      expect(heads).toBeLessThanOrEqual(1);
      if (heads === 1) expect(json.message).toMatch(/…\((1048576|1048578|1048580) characters\)/);
    });
  }
});
