import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Bearer = typeof import("@tessera/bearer");

/** One base64url JSON part of a JWT, decoded without the package: what a client would read. */
function jwtPart(token: string, index: number): Record<string, unknown> {
  const base64 = (token.split(".")[index] ?? "").replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

export default {
  does: "authenticate requests by HS256 JWT and by API key, answer 401 for bad tokens",
  imports: () => ["@tessera/bearer"],
  async run({ load, check }) {
    const {
      bearerAuthentication,
      createApiKey,
      createBearerAuthenticator,
      createJwtIssuer,
      MemoryApiKeyStore,
    } = await load<Bearer>("@tessera/bearer");
    let now = Date.UTC(2025, 0, 1);
    const clock = () => now;
    const jwt = createJwtIssuer({
      secrets: { current: "a secret key base of at least thirty-two characters" },
      clock,
    });
    const apiKeys = new MemoryApiKeyStore();
    const users = new Map([[7, { id: 7, email: "ada@example.com" }]]);
    const bearer = createBearerAuthenticator({
      jwt,
      apiKeys,
      findUser: async (id) => users.get(id),
      clock,
    });
    const authenticate = bearerAuthentication(bearer);
    const request = (authorization: string) =>
      new Request("https://api.test/api/posts", { headers: { Authorization: authorization } });
    const context = { params: {}, clientAddress: "192.0.2.1" };

    const { token, expiresIn } = await jwt.issue(7);
    check(expiresIn === 3600 && token.split(".").length === 3, "a JWT is issued for an hour");
    const header = jwtPart(token, 0);
    const claims = jwtPart(token, 1);
    check(header.alg === "HS256", "the JWT is HS256");
    check(
      claims.sub === "7" && claims.iat === now / 1000 && claims.exp === now / 1000 + 3600,
      "the JWT names user 7 and expires an hour after it was issued",
    );

    const byJwt = await bearer.authenticate(request(`Bearer ${token}`));
    check(
      byJwt.ok && byJwt.value.credential === "jwt" && byJwt.value.user.email === "ada@example.com",
      "the JWT authenticates user 7",
    );

    const created = await createApiKey(apiKeys, { userId: 7, name: "  deploy bot " }, clock);
    check(
      created.ok && created.value.key.length === 43 && created.value.api_key.name === "deploy bot",
      "an API key is created",
    );
    const key = created.ok ? created.value.key : "";
    const byKey = await bearer.authenticate(request(`bearer  ${key}`));
    check(
      byKey.ok && byKey.value.credential === "api_key" && byKey.value.apiKeyId === 1,
      "the API key authenticates",
    );

    const foreign = createJwtIssuer({
      secrets: { current: "another secret key base of thirty-two characters" },
      clock,
    });
    const forged = await bearer.authenticate(request(`Bearer ${(await foreign.issue(7)).token}`));
    check(
      !forged.ok && forged.reason === "bad-signature",
      "a JWT signed with another secret is refused",
    );
    const refused = await authenticate(
      request(`Bearer ${(await foreign.issue(7)).token}`),
      context,
    );
    check(!refused.ok && refused.response.status === 401, "a bad token is answered 401");
    if (!refused.ok) {
      check(
        refused.response.headers.get("WWW-Authenticate") === "Bearer",
        "the 401 carries WWW-Authenticate: Bearer",
      );
      const body = await refused.response.json();
      check(
        JSON.stringify(body) ===
          '{"error":{"code":"unauthenticated","message":"Unauthorized","status":401}}',
        "the 401 body is the envelope",
      );
    }
    const basic = await bearer.authenticate(request("Basic YWRhOnB3"));
    check(!basic.ok && basic.reason === "malformed-header", "another scheme is refused");

    const badKey = await bearer.authenticate(
      request(`Bearer ${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`),
    );
    check(!badKey.ok && badKey.reason === "unknown-api-key", "an unknown API key is refused");

    now += 3600 * 1000;
    const expired = await bearer.authenticate(request(`Bearer ${token}`));
    check(!expired.ok && expired.reason === "expired", "the JWT is expired at exp exactly");
  },
} satisfies RuntimeSmoke;
