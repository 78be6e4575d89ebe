import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

type Accounts = typeof import("@tessera/accounts");
type Bearer = typeof import("@tessera/bearer");
type Http = typeof import("@tessera/http");
type Mail = typeof import("@tessera/mail");
type RateLimit = typeof import("@tessera/ratelimit");

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery staple";

export default {
  does: "JSON sign-up (201), bearer token, account read; HTML sign-up mails a link that confirms; TOTP and a passkey (added, then signing in) verified",
  imports: () => [
    "@tessera/accounts",
    "@tessera/bearer",
    "@tessera/http",
    "@tessera/mail",
    "@tessera/ratelimit",
  ],
  async run({ load, check }) {
    const {
      accountRoutes,
      MemoryEmailedTokenStore,
      MemoryPasskeyStore,
      MemorySecondFactorStore,
      MemoryUserStore,
      totpCode,
    } = await load<Accounts>("@tessera/accounts");
    const { MemoryApiKeyStore } = await load<Bearer>("@tessera/bearer");
    const { routeRequests } = await load<Http>("@tessera/http");
    const { MemoryMailer } = await load<Mail>("@tessera/mail");
    const { MemoryRateLimitStore } = await load<RateLimit>("@tessera/ratelimit");

    const users = new MemoryUserStore();
    const mailer = new MemoryMailer();
    const accounts = accountRoutes({
      users,
      apiKeys: new MemoryApiKeyStore(),
      emailedTokens: new MemoryEmailedTokenStore(),
      rateLimits: new MemoryRateLimitStore(),
      secondFactors: new MemorySecondFactorStore(),
      passkeys: new MemoryPasskeyStore(),
      secretKeyBase: "a secret key base of at least thirty-two characters",
      mailer,
      appUrl: ORIGIN,
      passwords: { iterations: 1000 },
    });
    const handle = routeRequests(accounts.routes);
    const send = async (request: Request) => {
      const response = await handle(request, { clientAddress: "203.0.113.7" });
      if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
      return response;
    };
    const json = (method: string, path: string, body?: unknown, token?: string) =>
      send(
        new Request(`${ORIGIN}${path}`, {
          method,
          headers: {
            "content-type": "application/json",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );

    const email = "ada@example.com";
    const signup = await json("POST", "/api/auth/signup", { email, password: PASSWORD });
    check(signup.status === 201, "JSON sign-up answers 201");
    const created = (await signup.json()) as Record<string, unknown>;
    check(
      created.email === email && !("password_digest" in created),
      "sign-up answers the user without its digest",
    );
    const again = await json("POST", "/api/auth/signup", { email, password: PASSWORD });
    const taken = (await again.json()) as { error: { fields: Record<string, string[]> } };
    check(
      again.status === 422 && taken.error.fields.email?.[0] === "has already been taken",
      "a second sign-up with the same email is a 422",
    );

    const wrong = await json("POST", "/api/auth/token", { email, password: `${PASSWORD}!` });
    check(wrong.status === 401, "a wrong password gets no token");
    const issued = await json("POST", "/api/auth/token", { email, password: PASSWORD });
    const token = (await issued.json()) as { token: string; token_type: string };
    check(
      issued.status === 200 && token.token_type === "Bearer" && token.token.length > 0,
      "the right password gets a bearer token",
    );
    const me = await json("GET", "/api/auth/me", undefined, token.token);
    check(
      me.status === 200 && ((await me.json()) as { email: string }).email === email,
      "the token reads the account",
    );
    const anonymous = await json("GET", "/api/auth/me");
    check(
      anonymous.status === 401 && anonymous.headers.get("www-authenticate") === "Bearer",
      "no token is a 401 with a Bearer challenge",
    );

    const grace = "grace@example.com";
    const form = (path: string, fields: Record<string, string>) =>
      send(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: ORIGIN,
            host: "app.example",
          },
          body: new URLSearchParams(fields),
        }),
      );
    const page = await form("/signup", { email: grace, password: PASSWORD });
    check(page.status === 303, "HTML sign-up redirects");
    check(page.headers.getSetCookie().length === 1, "HTML sign-up sets the session cookie");
    const mail = mailer.last(grace);
    const link = mail?.text.match(/https:\/\/app\.example(\/confirmations\/[\w-]+)/)?.[1];
    check(
      mail?.subject === "Confirm your email address" && link !== undefined,
      "sign-up mails a confirmation link",
    );
    check((await users.findByEmail(grace))?.confirmedAt === null, "the new user is unconfirmed");
    const confirmed = await form(link ?? "/confirmations/none", {});
    check(
      confirmed.status === 303 && confirmed.headers.get("location") === "/account",
      "the mailed link confirms",
    );
    check((await users.findByEmail(grace))?.confirmedAt !== null, "the user is stored confirmed");

    // A passkey: @simplewebauthn/server verifies a software authenticator's ES256 (WebCrypto).
    const passkeyOptions = await json("POST", "/api/auth/passkeys/options", {}, token.token);
    const { challenge } = (await passkeyOptions.json()) as { challenge: string };
    const authenticator = await SoftwareAuthenticator.create(ORIGIN);
    const registration = await authenticator.register(challenge);
    const added = await json("POST", "/api/auth/passkeys", { response: registration }, token.token);
    check(added.status === 201, "a passkey's registration verifies");
    const replayed = await json(
      "POST",
      "/api/auth/passkeys",
      { response: registration },
      token.token,
    );
    check(replayed.status === 400, "a replayed registration is refused");
    const signInOptions = await json("POST", "/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await signInOptions.json()) as { challenge_id: string };
    const assertion = await authenticator.authenticate(challenge_id);
    const byPasskey = await json("POST", "/api/auth/passkeys/login", {
      challenge_id,
      response: assertion,
    });
    check(byPasskey.status === 200, "a passkey's assertion signs in");
    const again2 = await json("POST", "/api/auth/passkeys/login", {
      challenge_id,
      response: assertion,
    });
    check(again2.status === 401, "a replayed assertion is refused");

    // TOTP: enrol, confirm with the code of now, then the password asks for the next step's code.
    const setup = await json("POST", "/api/auth/mfa/totp", { password: PASSWORD }, token.token);
    const key = decodeBase32((await setup.json()).secret as string);
    const confirm = await json(
      "POST",
      "/api/auth/mfa/totp/confirm",
      { code: totpCode(key, Date.now()) },
      token.token,
    );
    check(confirm.status === 200, "a TOTP code from the key confirms the enrolment");
    const pending = await json("POST", "/api/auth/token", { email, password: PASSWORD });
    const { mfa_token } = (await pending.json()) as { mfa_token: string };
    check(pending.status === 403, "the password then asks for a second factor");
    const code = totpCode(key, Date.now() + 30_000);
    const second = await json("POST", "/api/auth/token/mfa", { mfa_token, code });
    check(second.status === 200, "a TOTP code completes the sign-in");
  },
} satisfies RuntimeSmoke;

/** RFC 4648 base32 (the TOTP secret's alphabet), without padding. */
function decodeBase32(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const letter of text) {
    value = (value << 5) | alphabet.indexOf(letter);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return new Uint8Array(bytes);
}
