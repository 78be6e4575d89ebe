import { describe, expect, it } from "vitest";
import {
  bearerAuthentication,
  createBearerAuthenticator,
  createJwtIssuer,
  MemoryApiKeyStore,
} from "../src/index.js";
import { SECRET } from "./hand-made-jwt.js";

describe("bearerAuthentication", () => {
  const jwt = createJwtIssuer({ secrets: { current: SECRET } });
  const authenticate = bearerAuthentication(
    createBearerAuthenticator({
      jwt,
      apiKeys: new MemoryApiKeyStore(),
      findUser: async (id) => (id === 1 ? { id: 1 } : undefined),
    }),
  );
  const context = { params: {}, clientAddress: "192.0.2.1" };
  const request = (authorization?: string) =>
    new Request("http://app.test/api/posts", {
      headers: authorization ? { authorization } : {},
    });

  it("gives the token's identity", async () => {
    const { token } = await jwt.issue(1);
    const result = await authenticate(request(`Bearer ${token}`), context);
    expect(result.ok && result.value).toEqual({ user: { id: 1 }, credential: "jwt" });
  });

  it("gives the 401 with its challenge for a missing token or a deleted user", async () => {
    const { token } = await jwt.issue(2);
    for (const authorization of [undefined, `Bearer ${token}`]) {
      const result = await authenticate(request(authorization), context);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.response.status).toBe(401);
      expect(result.response.headers.get("www-authenticate")).toBe("Bearer");
    }
  });
});
