import { describe, expect, it } from "vitest";
import {
  BLANK,
  errorCodeOfStatus,
  errorEnvelope,
  INVALID,
  STATUS_ERROR_CODES,
  tooLongMessage,
} from "../src/index.js";

describe("errorEnvelope", () => {
  it("holds the code, message and status, and no `fields` key when none are given", () => {
    const envelope = errorEnvelope(404, "Not found");
    expect(envelope).toEqual({ error: { code: "not_found", message: "Not found", status: 404 } });
    expect(JSON.stringify(envelope)).toBe(
      '{"error":{"code":"not_found","message":"Not found","status":404}}',
    );
  });

  it("takes a narrower code than the status's own", () => {
    expect(errorEnvelope(409, "Stale", { code: "stale_record" }).error.code).toBe("stale_record");
  });

  it("carries every failing field's messages on a 422", () => {
    const envelope = errorEnvelope(422, "Validation failed", {
      fields: { name: [BLANK], email: [INVALID, tooLongMessage(254)] },
    });
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: {
          name: ["can't be blank"],
          email: ["is invalid", "is too long (maximum is 254 characters)"],
        },
      },
    });
  });

  it("words length limits in characters or bytes", () => {
    expect(tooLongMessage(100)).toBe("is too long (maximum is 100 characters)");
    expect(tooLongMessage(2_000_000, "bytes")).toBe("is too long (maximum is 2000000 bytes)");
  });
});

describe("errorCodeOfStatus", () => {
  it("gives each known status its word, and other statuses their class's", () => {
    for (const [status, code] of Object.entries(STATUS_ERROR_CODES)) {
      expect(errorCodeOfStatus(Number(status))).toBe(code);
    }
    expect(errorCodeOfStatus(418)).toBe("bad_request");
    expect(errorCodeOfStatus(502)).toBe("internal_error");
  });

  it("keeps every code snake_case", () => {
    for (const code of Object.values(STATUS_ERROR_CODES))
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
