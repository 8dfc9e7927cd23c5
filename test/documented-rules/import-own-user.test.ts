/**
 * "All import requests must target your own user" (tkhq/docs features/organizations.mdx:29), a
 * default deny: even the root user's init_import_wallet / init_import_private_key for another
 * user is refused as a denial (403, code 7, "request not authorized", errors.mdx:135), recorded
 * FAILED like any denial.
 */
import { describe, expect, it } from "vitest";
import { createApiKeyUser, rawPost, refusal, sdkClient, submitBody, violatedField } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";


describe("imports target the requesting user only", () => {
  const e = useTestEmulator();

  it("the root user's init_import_wallet and init_import_private_key for another user: 403 request not authorized", async () => {
    const root = sdkClient(e);
    const other = await createApiKeyUser(e, "someone-else");
    for (const call of [() => root.initImportWallet({ userId: other.id }), () => root.initImportPrivateKey({ userId: other.id })]) {
      const err = await refusal(call());
      expect(err.code).toBe(7);
      expect(err.message).toMatch(/^Turnkey error 7: request not authorized: all import requests must target your own user/);
      expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED" })]));
      expect(violatedField(err)).toBe("parameters.userId");
    }
    const { activities } = await root.getActivities({ filterByType: ["ACTIVITY_TYPE_INIT_IMPORT_WALLET", "ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY"] });
    expect(activities.map((a) => a.status)).toEqual(["ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_FAILED"]);

    const raw = await rawPost(e, "/public/v1/submit/init_import_wallet", submitBody(e, "ACTIVITY_TYPE_INIT_IMPORT_WALLET", { userId: other.id }));
    expect(raw.status).toBe(403);
    expect(raw.json.code).toBe(7);
  });

  it("for the requesting user itself, it completes", async () => {
    const started = await sdkClient(e).initImportWallet({ userId: e.info.rootUserId });
    expect(started.importBundle).toBeTruthy();
  });
});
