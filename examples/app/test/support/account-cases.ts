// The account routes' cases: JSON sign-up, tokens, keys, and the HTML pages and forms.
import fc from "fast-check";
import { idIn, pathOf } from "./case-builders.js";
import { formPayload, jsonPayload, type ValuesByKey } from "./fuzz-bodies.js";
import { OWNER } from "./fuzz-fixtures.js";
import { bearerHeaders, sessionHeaders, spareSessionHeaders } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, ignoredQuery, listQuery, page } from "./fuzzed-route.js";
import { hostileSegment, jsonString } from "./hostile-input.js";

/** New addresses, and the owner's in the spellings that must find it. */
const emails = fc.oneof(
  fc.nat().map((n) => `fuzz${n}@example.com`),
  fc.constantFrom(OWNER.email, "OWNER@FUZZ.EXAMPLE", " owner@fuzz.example "),
);
/** Passwords: a good one, the owner's, too short, too long. */
const passwords = fc.constantFrom(
  "correct horse battery",
  OWNER.password,
  "short",
  "p".repeat(129),
);
/** Passwords that are never the owner's: sent where the right one would delete the account. */
const wrongPasswords = fc.constantFrom("wrong password", "", "p".repeat(129), OWNER.email);
/** A token in a path: one of the right shape, or a hostile segment. */
const tokenSegment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), hostileSegment);
/** Codes: six digits, a backup code's shape, and junk. */
const codes = fc.oneof(
  fc.stringMatching(/^\d{6}$/),
  fc.stringMatching(/^[0-9a-z]{5}-[0-9a-z]{5}$/),
  fc.string({ maxLength: 40 }),
);
/** WebAuthn responses as JSON texts: shaped like one (but never valid), or not at all. */
const webAuthnResponses = fc.constantFrom(
  "{}",
  "null",
  '"response"',
  "[]",
  '{"id":"AAAA","rawId":"AAAA","type":"public-key","response":{"clientDataJSON":"e30"},"clientExtensionResults":{}}',
  '{"id":"AAAA","response":{"clientDataJSON":"eyJjaGFsbGVuZ2UiOiJ4In0","attestationObject":"oA","authenticatorData":"AA","signature":"AA"}}',
  `{"id":"${"A".repeat(2000)}","response":{"clientDataJSON":"${"e".repeat(5000)}"}}`,
);
/** The values as JSON strings. */
const asJson = (values: ValuesByKey): ValuesByKey =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.map(jsonString)]));

/** `/api/auth/*`: sign-up, tokens, the user, API keys. */
export const jsonAccountRoutes: FuzzedRoute[] = [
  fuzzed("POST /api/auth/signup", "json", {
    path: pathOf("/api/auth/signup"),
    payload: jsonPayload(asJson({ email: emails, password: passwords, name: fc.string() })),
  }),
  fuzzed("POST /api/auth/token", "json", {
    path: pathOf("/api/auth/token"),
    payload: jsonPayload(asJson({ email: emails, password: passwords })),
  }),
  // A refresh token nobody was given: a 401 to exchange, the same 204 to revoke.
  ...(["POST", "DELETE"] as const).map((method) =>
    fuzzed(`${method} /api/auth/token/refresh`, "json", {
      path: pathOf("/api/auth/token/refresh"),
      payload: jsonPayload(asJson({ refresh_token: fc.string({ maxLength: 100 }) })),
    }),
  ),
  fuzzed("GET /api/auth/me", "json", { path: pathOf("/api/auth/me"), headers: bearerHeaders }),
  fuzzed("DELETE /api/auth/me", "json", {
    path: pathOf("/api/auth/me"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ password: wrongPasswords, email: emails })),
  }),
  fuzzed("PATCH /api/auth/me", "json", {
    path: pathOf("/api/auth/me"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }) })),
  }),
  // Never the owner's password: a change would sign the suite's own token out.
  fuzzed("POST /api/auth/password", "json", {
    path: pathOf("/api/auth/password"),
    headers: bearerHeaders,
    payload: jsonPayload({
      ...asJson({ current_password: wrongPasswords, password: passwords }),
      sign_out_others: fc.constantFrom("true", "false", '"yes"', "null"),
    }),
  }),
  // Never the owner's password: a change would mail a link, not change the address.
  fuzzed("POST /api/auth/email", "json", {
    path: pathOf("/api/auth/email"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ email: emails, current_password: wrongPasswords })),
  }),
  fuzzed("POST /api/auth/email/confirm", "json", {
    path: pathOf("/api/auth/email/confirm"),
    payload: jsonPayload({ token: tokenSegment.map(jsonString) }),
  }),
  fuzzed("POST /api/auth/reauthenticate", "json", {
    path: pathOf("/api/auth/reauthenticate"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ password: passwords })),
  }),
  fuzzed("GET /api/auth/keys", "json", { path: pathOf("/api/auth/keys"), headers: bearerHeaders }),
  fuzzed("GET /api/auth/sessions", "json", {
    path: pathOf("/api/auth/sessions"),
    headers: bearerHeaders,
  }),
  // Hostile ids and ids of no device of the fuzzing user: a 404.
  fuzzed("DELETE /api/auth/sessions/:id", "json", {
    path: pathOf("/api/auth/sessions/:id", {
      id: idIn(["browser-999999", "app-999999", "browser-0", "app-", "x-1"], hostileSegment),
    }),
    headers: bearerHeaders,
  }),
  // The fuzzing bearer is no operator: each of these is the 404 of a path not served.
  fuzzed("GET /api/admin/users", "json", {
    path: pathOf("/api/admin/users", {}, listQuery),
    headers: bearerHeaders,
  }),
  ...(
    [
      "GET /api/admin/users/:id",
      "POST /api/admin/users/:id/ban",
      "POST /api/admin/users/:id/unban",
      "POST /api/admin/users/:id/sessions/revoke",
      "POST /api/admin/users/:id/impersonate",
    ] as const
  ).map((route) =>
    fuzzed(route, "json", {
      path: pathOf(route.split(" ")[1]!, { id: idIn(["{victim-key}"], hostileSegment) }),
      headers: bearerHeaders,
      ...(route.endsWith("/ban")
        ? { payload: jsonPayload(asJson({ reason: fc.string({ maxLength: 600 }) })) }
        : {}),
    }),
  ),
  fuzzed("GET /api/admin/audit", "json", {
    path: pathOf("/api/admin/audit", {}, listQuery),
    headers: bearerHeaders,
  }),
  // The fuzzing bearer acts as nobody: the 404 every /api/admin route gives a non-operator.
  fuzzed("POST /api/admin/impersonation/stop", "json", {
    path: pathOf("/api/admin/impersonation/stop"),
    headers: bearerHeaders,
  }),
  fuzzed("GET /api/auth/activity", "json", {
    path: pathOf("/api/auth/activity", {}, listQuery),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/auth/keys", "json", {
    path: pathOf("/api/auth/keys"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }) })),
  }),
  fuzzed("DELETE /api/auth/keys/:id", "json", {
    path: pathOf("/api/auth/keys/:id", { id: idIn(["{victim-key}"], hostileSegment) }),
    headers: bearerHeaders,
  }),
  // Second factors and passkeys: never the owner's password where it would turn TOTP off.
  ...["/api/auth/mfa/totp", "/api/auth/mfa/backup_codes"].map((path) =>
    fuzzed(`POST ${path}`, "json", {
      path: pathOf(path),
      headers: bearerHeaders,
      payload: jsonPayload(asJson({ password: passwords })),
    }),
  ),
  fuzzed("DELETE /api/auth/mfa/totp", "json", {
    path: pathOf("/api/auth/mfa/totp"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ password: wrongPasswords })),
  }),
  fuzzed("POST /api/auth/mfa/totp/confirm", "json", {
    path: pathOf("/api/auth/mfa/totp/confirm"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ code: codes })),
  }),
  fuzzed("POST /api/auth/token/mfa", "json", {
    path: pathOf("/api/auth/token/mfa"),
    payload: jsonPayload({
      mfa_token: tokenSegment.map(jsonString),
      code: codes.map(jsonString),
      passkey: webAuthnResponses,
    }),
  }),
  fuzzed("POST /api/auth/token/mfa/options", "json", {
    path: pathOf("/api/auth/token/mfa/options"),
    payload: jsonPayload({ mfa_token: tokenSegment.map(jsonString) }),
  }),
  fuzzed("POST /api/auth/passkeys/options", "json", {
    path: pathOf("/api/auth/passkeys/options"),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/auth/passkeys", "json", {
    path: pathOf("/api/auth/passkeys"),
    headers: bearerHeaders,
    payload: jsonPayload({
      name: fc.string({ maxLength: 120 }).map(jsonString),
      response: webAuthnResponses,
    }),
  }),
  fuzzed("GET /api/auth/passkeys", "json", {
    path: pathOf("/api/auth/passkeys"),
    headers: bearerHeaders,
  }),
  fuzzed("DELETE /api/auth/passkeys/:id", "json", {
    path: pathOf("/api/auth/passkeys/:id", { id: hostileSegment }),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/auth/email_code", "json", {
    path: pathOf("/api/auth/email_code"),
    payload: jsonPayload(asJson({ email: emails })),
  }),
  fuzzed("POST /api/auth/token/email_code", "json", {
    path: pathOf("/api/auth/token/email_code"),
    payload: jsonPayload(asJson({ email: emails, code: codes })),
  }),
  fuzzed("POST /api/auth/passkeys/login/options", "json", {
    path: pathOf("/api/auth/passkeys/login/options"),
  }),
  fuzzed("POST /api/auth/passkeys/login", "json", {
    path: pathOf("/api/auth/passkeys/login"),
    payload: jsonPayload({
      challenge_id: tokenSegment.map(jsonString),
      response: webAuthnResponses,
    }),
  }),
];

/** The account pages and forms, the emailed-link flows and the device list. */
export const htmlAccountRoutes: FuzzedRoute[] = [
  ...[
    "/signup",
    "/login",
    "/magic_link",
    "/passwords/new",
    "/account",
    "/account/sessions",
    "/account/activity",
    "/account/password",
    "/account/email",
  ].map((path) => page(`GET ${path}`, { path: pathOf(path, {}, ignoredQuery) })),
  page("POST /signup", {
    path: pathOf("/signup"),
    payload: formPayload({ email: emails, password: passwords }),
  }),
  page("POST /login", {
    path: pathOf("/login", {}, ignoredQuery),
    payload: formPayload({
      email: emails,
      password: passwords,
      remember_me: fc.constantFrom("1", "0", "on"),
    }),
  }),
  fuzzed("POST /logout", "page", { path: pathOf("/logout"), headers: spareSessionHeaders }),
  page("POST /account/profile", {
    path: pathOf("/account/profile"),
    payload: formPayload({ name: fc.string({ maxLength: 120 }) }),
  }),
  page("POST /account/email", {
    path: pathOf("/account/email"),
    payload: formPayload({ email: emails, current_password: wrongPasswords }),
  }),
  page("GET /email_changes/:token", {
    path: pathOf("/email_changes/:token", { token: tokenSegment }),
  }),
  page("POST /email_changes/:token", {
    path: pathOf("/email_changes/:token", { token: tokenSegment }),
  }),
  page("POST /account/password", {
    path: pathOf("/account/password"),
    payload: formPayload({
      current_password: wrongPasswords,
      password: passwords,
      password_confirmation: passwords,
      sign_out_others: fc.constantFrom("1", "0"),
    }),
  }),
  page("POST /account/delete", {
    path: pathOf("/account/delete"),
    payload: formPayload({ password: wrongPasswords, email: emails }),
  }),
  page("POST /magic_link", {
    path: pathOf("/magic_link"),
    payload: formPayload({ email: emails }),
  }),
  page("POST /passwords", { path: pathOf("/passwords"), payload: formPayload({ email: emails }) }),
  page("POST /confirmations", { path: pathOf("/confirmations") }),
  ...["magic_link", "passwords", "confirmations"].flatMap((flow) => [
    page(`GET /${flow}/:token`, { path: pathOf(`/${flow}/:token`, { token: tokenSegment }) }),
    page(`POST /${flow}/:token`, {
      path: pathOf(`/${flow}/:token`, { token: tokenSegment }),
      payload: formPayload({
        password: passwords,
        password_confirmation: passwords,
        sign_out_everywhere: fc.constantFrom("1", "0"),
      }),
    }),
  ]),
  fuzzed("POST /account/sessions/:id/delete", "page", {
    path: pathOf("/account/sessions/:id/delete", { id: hostileSegment }),
    headers: spareSessionHeaders,
  }),
  fuzzed("POST /account/sessions/apps/:id/delete", "page", {
    path: pathOf("/account/sessions/apps/:id/delete", { id: hostileSegment }),
    headers: spareSessionHeaders,
  }),
  page("POST /account/sessions/others/delete", { path: pathOf("/account/sessions/others/delete") }),
  // The fuzzing session is no operator's: each of these is a 404 page.
  page("GET /admin/users", { path: pathOf("/admin/users", {}, listQuery) }),
  page("GET /admin/users/:id", { path: pathOf("/admin/users/:id", { id: hostileSegment }) }),
  page("POST /admin/users/:id/ban", {
    path: pathOf("/admin/users/:id/ban", { id: hostileSegment }),
    payload: formPayload({
      reason: fc.string({ maxLength: 600 }),
      until: fc.string({ maxLength: 30 }),
    }),
  }),
  ...(["unban", "sessions/revoke", "impersonate"] as const).map((action) =>
    page(`POST /admin/users/:id/${action}`, {
      path: pathOf(`/admin/users/:id/${action}`, { id: hostileSegment }),
    }),
  ),
  // The fuzzing session is nobody's impersonation: a 404 page.
  page("POST /admin/impersonation/stop", { path: pathOf("/admin/impersonation/stop") }),
  // The security page and the second step: forms, and the JSON steps of their script ("any":
  // JSON when signed in, the sign-in redirect or a refusal page otherwise).
  ...["/account/security", "/login/second_factor"].map((path) =>
    page(`GET ${path}`, { path: pathOf(path, {}, ignoredQuery) }),
  ),
  ...["/account/security/totp", "/account/security/backup_codes"].map((path) =>
    page(`POST ${path}`, { path: pathOf(path), payload: formPayload({ password: passwords }) }),
  ),
  page("POST /account/security/reauthenticate", {
    path: pathOf("/account/security/reauthenticate"),
    payload: formPayload({ password: passwords, code: codes }),
  }),
  page("POST /account/security/totp/delete", {
    path: pathOf("/account/security/totp/delete"),
    payload: formPayload({ password: wrongPasswords }),
  }),
  page("POST /account/security/totp/confirm", {
    path: pathOf("/account/security/totp/confirm"),
    payload: formPayload({ code: codes }),
  }),
  page("POST /login/second_factor", {
    path: pathOf("/login/second_factor"),
    payload: formPayload({ code: codes, passkey: webAuthnResponses }),
  }),
  page("POST /account/security/passkeys/:id", {
    path: pathOf("/account/security/passkeys/:id", { id: hostileSegment }),
    payload: formPayload({ name: fc.string({ maxLength: 120 }) }),
  }),
  page("POST /account/security/passkeys/:id/delete", {
    path: pathOf("/account/security/passkeys/:id/delete", { id: hostileSegment }),
  }),
  ...[
    "/account/security/passkeys/options",
    "/login/passkey/options",
    "/login/second_factor/passkey/options",
  ].map((path) => fuzzed(`POST ${path}`, "any", { path: pathOf(path), headers: sessionHeaders })),
  ...["/account/security/passkeys", "/login/passkey"].map((path) =>
    fuzzed(`POST ${path}`, "any", {
      path: pathOf(path),
      headers: sessionHeaders,
      payload: jsonPayload({
        name: fc.string({ maxLength: 120 }).map(jsonString),
        challenge_id: tokenSegment.map(jsonString),
        response: webAuthnResponses,
        remember_me: fc.constantFrom("true", "false", "1"),
      }),
    }),
  ),
];
