import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type OAuth = typeof import("@tessera/oauth");
type Accounts = typeof import("@tessera/accounts");
type Crypto = typeof import("@tessera/crypto");
type Http = typeof import("@tessera/http");
type Session = typeof import("@tessera/session");

const ORIGIN = "https://app.example";
const CODE = "github-code-1";
const ACCESS_TOKEN = "gho_smoke_token";

export default {
  does: "GitHub sign-in with PKCE against a fake GitHub: authorization URL, wrong state refused, user linked",
  imports: () => [
    "@tessera/oauth",
    "@tessera/accounts",
    "@tessera/crypto",
    "@tessera/http",
    "@tessera/session",
  ],
  async run({ load, check }) {
    const { githubProvider, MemoryIdentityStore, oauthMessages, oauthRoutes } =
      await load<OAuth>("@tessera/oauth");
    const { MemoryUserStore, accountEvents, sessionSignIns } =
      await load<Accounts>("@tessera/accounts");
    const { encodeBase64url, sha256, utf8 } = await load<Crypto>("@tessera/crypto");
    const { routeRequests } = await load<Http>("@tessera/http");
    const { createSessionCookies } = await load<Session>("@tessera/session");

    // GitHub, answered in place (the smoke opens no connection). Its token endpoint checks the
    // PKCE verifier against the challenge of the authorization URL, as GitHub does.
    let challenge = "";
    const calls: string[] = [];
    const github = async (url: string, init: RequestInit): Promise<Response> => {
      const { pathname } = new URL(url);
      calls.push(pathname);
      if (pathname === "/login/oauth/access_token") {
        const form = new URLSearchParams(String(init.body));
        const verifier = form.get("code_verifier") ?? "";
        const valid =
          form.get("code") === CODE &&
          form.get("client_secret") === "client-secret" &&
          form.get("redirect_uri") === `${ORIGIN}/auth/github/callback` &&
          encodeBase64url(sha256(utf8(verifier))) === challenge;
        return valid
          ? Response.json({ access_token: ACCESS_TOKEN, token_type: "bearer", scope: "user:email" })
          : Response.json({ error: "bad_verification_code" }, { status: 400 });
      }
      if (new Headers(init.headers).get("authorization") !== `Bearer ${ACCESS_TOKEN}`) {
        return Response.json({ message: "Bad credentials" }, { status: 401 });
      }
      if (pathname === "/user") return Response.json({ id: 42, login: "ada" });
      if (pathname === "/user/emails") {
        return Response.json([
          { email: "ada@users.noreply.github.com", primary: false, verified: true },
          { email: "Ada@Example.com", primary: true, verified: true },
        ]);
      }
      return Response.json({ message: "Not Found" }, { status: 404 });
    };

    const sessions = createSessionCookies({
      appName: "tessera",
      secrets: { current: "a secret key base of at least thirty-two characters" },
    });
    const users = new MemoryUserStore();
    const identities = new MemoryIdentityStore();
    const providerErrors: unknown[] = [];
    const handle = routeRequests(
      oauthRoutes({
        providers: [githubProvider({ clientId: "client-1", clientSecret: "client-secret" })],
        users,
        identities,
        appUrl: ORIGIN,
        sessions,
        signIns: sessionSignIns({ sessions, events: accountEvents(), clock: () => Date.now() }),
        fetch: github,
        onProviderError: (error) => providerErrors.push(error),
      }),
    );
    const send = async (request: Request) => {
      const response = await handle(request);
      if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
      return response;
    };
    const cookieOf = (response: Response) =>
      response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const sessionOf = (response: Response) =>
      sessions.read(new Request(ORIGIN, { headers: { cookie: cookieOf(response) } }));
    const start = () =>
      send(new Request(`${ORIGIN}/auth/github`, { method: "POST", headers: { origin: ORIGIN } }));

    const started = await start();
    const location = new URL(started.headers.get("location") ?? "about:blank");
    const query = location.searchParams;
    check(
      started.status === 303 &&
        location.href.startsWith("https://github.com/login/oauth/authorize?"),
      "POST /auth/github redirects to GitHub's authorization endpoint",
    );
    check(
      query.get("response_type") === "code" &&
        query.get("client_id") === "client-1" &&
        query.get("redirect_uri") === `${ORIGIN}/auth/github/callback` &&
        query.get("scope") === "user:email" &&
        query.get("code_challenge_method") === "S256" &&
        /^[\w-]{43}$/.test(query.get("code_challenge") ?? "") &&
        /^[\w-]{43}$/.test(query.get("state") ?? ""),
      "the authorization URL carries client, redirect, scope, state and an S256 challenge",
    );
    const forged = await send(
      new Request(`${ORIGIN}/auth/github`, {
        method: "POST",
        headers: { origin: "https://evil.example" },
      }),
    );
    check(forged.status === 403, "a cross-site start is refused");
    const unknown = await send(
      new Request(`${ORIGIN}/auth/okta`, { method: "POST", headers: { origin: ORIGIN } }),
    );
    check(unknown.status === 404, "an unconfigured provider is a 404");

    const wrongState = await send(
      new Request(`${ORIGIN}/auth/github/callback?code=${CODE}&state=not-the-state`, {
        headers: { cookie: cookieOf(started) },
      }),
    );
    const refusedSession = await sessionOf(wrongState);
    check(
      wrongState.status === 303 &&
        wrongState.headers.get("location") === "/login" &&
        refusedSession.takeFlashes()[0]?.message === oauthMessages.english["oauth.state_invalid"] &&
        refusedSession.userId === undefined,
      "a callback with the wrong state is refused with its alert",
    );
    check(calls.length === 0, "a refused state never reaches GitHub");

    const again = await start();
    const state = new URL(again.headers.get("location") ?? "about:blank").searchParams;
    challenge = state.get("code_challenge") ?? "";
    const callback = await send(
      new Request(`${ORIGIN}/auth/github/callback?code=${CODE}&state=${state.get("state")}`, {
        headers: { cookie: cookieOf(again) },
      }),
    );
    check(
      callback.status === 303 && callback.headers.get("location") === "/",
      `the callback signs in and redirects home (provider errors: ${providerErrors.join("; ")})`,
    );
    check(
      calls.join(" ") === "/login/oauth/access_token /user /user/emails",
      "the code was exchanged and the profile read",
    );
    const user = await users.findByEmail("ada@example.com");
    check(
      user !== undefined && user.confirmedAt !== null && user.passwordDigest === "",
      "a new confirmed user without a password has the primary verified email",
    );
    check((await identities.findUserId("github", "42")) === user?.id, "GitHub's user id is linked");
    const signedIn = await sessionOf(callback);
    check(
      signedIn.userId === user?.id && signedIn.takeFlashes()[0]?.message === "Signed in.",
      "the session cookie signs the browser in",
    );
  },
} satisfies RuntimeSmoke;
