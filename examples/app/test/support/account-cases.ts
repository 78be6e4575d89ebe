// The account routes' cases: JSON sign-up, tokens, keys, and the HTML pages and forms.
import fc from "fast-check";
import { idIn, pathOf } from "./case-builders.js";
import { formPayload, jsonPayload, type ValuesByKey } from "./fuzz-bodies.js";
import { OWNER } from "./fuzz-fixtures.js";
import { bearerHeaders, spareSessionHeaders } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, ignoredQuery, page } from "./fuzzed-route.js";
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
  fuzzed("GET /api/auth/me", "json", { path: pathOf("/api/auth/me"), headers: bearerHeaders }),
  fuzzed("DELETE /api/auth/me", "json", {
    path: pathOf("/api/auth/me"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ password: wrongPasswords, email: emails })),
  }),
  fuzzed("GET /api/auth/keys", "json", { path: pathOf("/api/auth/keys"), headers: bearerHeaders }),
  fuzzed("POST /api/auth/keys", "json", {
    path: pathOf("/api/auth/keys"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }) })),
  }),
  fuzzed("DELETE /api/auth/keys/:id", "json", {
    path: pathOf("/api/auth/keys/:id", { id: idIn(["{victim-key}"], hostileSegment) }),
    headers: bearerHeaders,
  }),
];

/** The account pages and forms, the emailed-link flows and the device list. */
export const htmlAccountRoutes: FuzzedRoute[] = [
  ...["/signup", "/login", "/magic_link", "/passwords/new", "/account", "/account/sessions"].map(
    (path) => page(`GET ${path}`, { path: pathOf(path, {}, ignoredQuery) }),
  ),
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
  page("POST /account/sessions/others/delete", { path: pathOf("/account/sessions/others/delete") }),
];
