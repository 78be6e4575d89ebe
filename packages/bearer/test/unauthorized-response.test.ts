import { describe, expect, it } from "vitest";
import { unauthorizedResponse } from "../src/unauthorized-response.js";

describe("unauthorizedResponse", () => {
  it("is the documented 401 with WWW-Authenticate: Bearer and the JSON error body", async () => {
    const response = unauthorizedResponse();
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(await response.text()).toBe(
      '{"error":{"code":"unauthenticated","message":"Unauthorized","status":401}}',
    );
  });

  it("is a fresh response each time, so each can be sent", async () => {
    const first = unauthorizedResponse();
    const second = unauthorizedResponse();
    await first.text();
    expect(second.bodyUsed).toBe(false);
    expect((await second.json()).error.status).toBe(401);
  });
});
