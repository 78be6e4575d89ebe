import { describe, expect, it } from "vitest";
import {
  badRequest,
  forbidden,
  jsonError,
  notFound,
  tooManyRequests,
  unauthorized,
  validationFailed,
} from "../src/index.js";

async function envelopeOf(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

describe("JSON error envelope", () => {
  it("404 says `Not found`", async () => {
    const response = notFound();
    expect(response.status).toBe(404);
    expect(await envelopeOf(response)).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
  });

  it("401 says `Unauthorized` and carries the headers given", async () => {
    const plain = unauthorized();
    expect(plain.status).toBe(401);
    expect(plain.headers.has("www-authenticate")).toBe(false);
    expect(await envelopeOf(plain)).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
    const bearer = unauthorized({ "WWW-Authenticate": "Bearer" });
    expect(bearer.headers.get("www-authenticate")).toBe("Bearer");
    expect(await envelopeOf(bearer)).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
  });

  it("429 says `Too many requests. Try again later.` with an optional Retry-After", async () => {
    const response = tooManyRequests(12.2);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("13");
    expect(await envelopeOf(response)).toEqual({
      error: { code: "rate_limited", message: "Too many requests. Try again later.", status: 429 },
    });
    expect(tooManyRequests().headers.has("retry-after")).toBe(false);
  });

  it("422 says `Validation failed` and lists every field's messages", async () => {
    const response = validationFailed({
      email: ["is invalid"],
      password: ["is too short (minimum is 8 characters)"],
    });
    expect(response.status).toBe(422);
    expect(await envelopeOf(response)).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: {
          email: ["is invalid"],
          password: ["is too short (minimum is 8 characters)"],
        },
      },
    });
  });

  it("400 and 403 carry the message given, with the status repeated in the body", async () => {
    expect(await envelopeOf(badRequest("unknown status paused"))).toEqual({
      error: { code: "bad_request", message: "unknown status paused", status: 400 },
    });
    const refused = forbidden("Wrong password");
    expect(refused.status).toBe(403);
    expect(await envelopeOf(refused)).toEqual({
      error: { code: "forbidden", message: "Wrong password", status: 403 },
    });
  });

  it("escapes hostile text as JSON rather than breaking the body", async () => {
    const response = jsonError(409, '"}<script>\u2028');
    expect(await response.text()).toBe(
      '{"error":{"code":"conflict","message":"\\"}<script>\u2028","status":409}}',
    );
  });
});
