import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Client = typeof import("@tessera/client");

/**
 * A service of four routes in memory, as the account routes answer: a password sign-in with a
 * TOTP second factor, `/api/auth/me` for the second token only, and one refresh token.
 */
function accountService() {
  const calls: string[] = [];
  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const refused = (status: number, code: string) =>
    json({ error: { code, message: code, status } }, status);
  const handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    calls.push(`${request.method} ${path}`);
    const body = request.method === "GET" ? {} : ((await request.json()) as Record<string, string>);
    if (path === "/api/auth/token") {
      return body.password === "right"
        ? json(
            {
              error: { code: "mfa_required", message: "A second factor is due", status: 403 },
              mfa_token: "m1",
              methods: ["totp", "backup_code"],
            },
            403,
          )
        : refused(401, "invalid_credentials");
    }
    if (path === "/api/auth/token/mfa") {
      return body.mfa_token === "m1" && body.code === "123456"
        ? json({ token: "t1", token_type: "Bearer", expires_in: 1, refresh_token: "r1" })
        : refused(401, "invalid_credentials");
    }
    if (path === "/api/auth/token/refresh" && request.method === "DELETE") {
      return new Response(null, { status: 204 });
    }
    if (path === "/api/auth/token/refresh") {
      return body.refresh_token === "r1"
        ? json({ token: "t2", token_type: "Bearer", expires_in: 3600, refresh_token: "r2" })
        : refused(401, "invalid_credentials");
    }
    return request.headers.get("authorization") === "Bearer t2"
      ? json({ id: 1, email: "ada@example.com" })
      : refused(401, "unauthenticated");
  };
  return { calls, handle };
}

export default {
  does: "sign in through a TOTP second factor, then refresh a refused token once for two calls",
  imports: () => ["@tessera/client"],
  async run({ load, check }) {
    const { createTesseraClient, TesseraError } = await load<Client>("@tessera/client");
    const service = accountService();
    const client = createTesseraClient({ baseUrl: "https://api.test", fetch: service.handle });

    const wrong = await client.signIn({ email: "ada@example.com", password: "wrong" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    check(
      wrong instanceof TesseraError && wrong.status === 401 && wrong.code === "invalid_credentials",
      "a wrong password throws the service's TesseraError",
    );
    const outcome = await client.signIn({ email: "ada@example.com", password: "right" });
    check(
      !outcome.signedIn && outcome.secondFactor.methods.join() === "totp,backup_code",
      "a password sign-in of an account with a second factor asks for it",
    );
    if (outcome.signedIn) return;
    await outcome.secondFactor.withCode("123456");
    const held = await client.tokens.get();
    check(held?.token === "t1" && held.refreshToken === "r1", "the second step keeps the pair");

    service.calls.length = 0;
    const [first, second] = await Promise.all([
      client.api.GET("/api/auth/me"),
      client.api.GET("/api/auth/me"),
    ]);
    check(
      first.data?.email === "ada@example.com" && second.data?.email === "ada@example.com",
      "both calls refused with the old token succeed once sent again",
    );
    check(
      service.calls.filter((call) => call === "POST /api/auth/token/refresh").length === 1 &&
        service.calls.length === 5,
      "one refresh serves both calls",
    );
    await client.signOut();
    check(
      (await client.tokens.get()) === undefined &&
        service.calls.at(-1) === "DELETE /api/auth/token/refresh",
      "signing out revokes the refresh token and forgets the pair",
    );
  },
} satisfies RuntimeSmoke;
