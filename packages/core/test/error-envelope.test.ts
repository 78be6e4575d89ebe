import { describe, expect, it } from "vitest";
import { BLANK, errorEnvelope, INVALID, tooLongMessage } from "../src/index.js";

describe("errorEnvelope", () => {
  it("holds the message and status, and no `fields` key when none are given", () => {
    const envelope = errorEnvelope(404, "Not found");
    expect(envelope).toEqual({ error: { message: "Not found", status: 404 } });
    expect(JSON.stringify(envelope)).toBe('{"error":{"message":"Not found","status":404}}');
  });

  it("carries every failing field's messages on a 422", () => {
    const envelope = errorEnvelope(422, "Validation failed", {
      name: [BLANK],
      email: [INVALID, tooLongMessage(254)],
    });
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({
      error: {
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
