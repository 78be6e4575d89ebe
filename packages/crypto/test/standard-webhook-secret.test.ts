import { describe, expect, it } from "vitest";
import { decodeStandardWebhookSecret } from "../src/index.js";

describe("decodeStandardWebhookSecret", () => {
  it("decodes the base64 after an optional whsec_ prefix", () => {
    const key = decodeStandardWebhookSecret("whsec_AAECAwQ=");
    expect([...key]).toEqual([0, 1, 2, 3, 4]);
    expect([...decodeStandardWebhookSecret("AAECAwQ=")]).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    "",
    "whsec_",
    "whsec_AAECAwQ==",
    "whsec_AAEC AwQ=",
    "whsec_AAECAwQ=\n",
    "whsec_AAECAwR=",
  ])("refuses %j", (secret) => {
    expect(() => decodeStandardWebhookSecret(secret)).toThrow(RangeError);
  });
});
