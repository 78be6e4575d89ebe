// src/account-api.d.ts is what openapi-typescript generates from the account routes' document
// now: this fails when a route's description changed and the committed types were not written
// again (`npm run generate:client -w @tessera/client`, or this file with `-u`).
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { accountApiDocument } from "./support/account-document.js";
import { ACCOUNT_TYPES_FILE, accountTypes } from "./support/account-types.js";

describe("the account routes' types", () => {
  it("come from a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(accountApiDocument()) as never);
    expect(result).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
  });

  it("are the ones committed in src/account-api.d.ts", async () => {
    await expect(await accountTypes()).toMatchFileSnapshot(ACCOUNT_TYPES_FILE.pathname);
  });
});
