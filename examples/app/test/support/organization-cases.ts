// The cases of the organization routes and of the webhook endpoint routes and pages: the fixture
// organization and a spare one delete routes may take, slugs and ids of no one, hostile
// segments, and bodies of every shape.
import fc from "fast-check";
import { pathOf } from "./case-builders.js";
import { formPayload, jsonPayload, type ValuesByKey } from "./fuzz-bodies.js";
import { bearerHeaders } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, ignoredQuery, page } from "./fuzzed-route.js";
import { hostileSegment, jsonString } from "./hostile-input.js";

/** The fixture organization, an organization of no one's, a slug no organization can have. */
const slugs = fc.oneof(
  fc.constantFrom("{org}", "no-such-org", "NEW", "a", `${"x".repeat(41)}`),
  hostileSegment,
);
/** The organization delete routes may take (the others keep `{org}` for every other case). */
const deletableSlugs = fc.oneof(fc.constantFrom("{victim-org}", "no-such-org"), hostileSegment);
/** A token of an invitation's shape (of no invitation), or anything else. */
const invitationTokens = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), hostileSegment);
const ids = fc.oneof(fc.constantFrom("1", "{owner-id}", "0", "-1", "999999999"), hostileSegment);
const roles = fc.constantFrom("owner", "admin", "member", "viewer", "god", "", "OWNER");
const emails = fc.constantFrom("invitee@fuzz.example", "owner@fuzz.example", "not an email");
const asJson = (values: ValuesByKey): ValuesByKey =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.map(jsonString)]));
const orgPath = (suffix: string, slug = slugs, extra: Record<string, fc.Arbitrary<string>> = {}) =>
  pathOf(`/api/orgs/:slug${suffix}`, { slug, ...extra });

/** `/api/orgs/*` and `/api/invitations/{token}/accept`. */
export const organizationRoutes: FuzzedRoute[] = [
  fuzzed("POST /api/orgs", "json", {
    path: pathOf("/api/orgs"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }), slug: slugs })),
  }),
  fuzzed("GET /api/orgs", "json", {
    path: pathOf("/api/orgs", {}, ignoredQuery),
    headers: bearerHeaders,
  }),
  fuzzed("GET /api/orgs/:slug", "json", { path: orgPath(""), headers: bearerHeaders }),
  fuzzed("PATCH /api/orgs/:slug", "json", {
    path: orgPath(""),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }) })),
  }),
  fuzzed("DELETE /api/orgs/:slug", "json", {
    path: orgPath("", deletableSlugs),
    headers: bearerHeaders,
  }),
  fuzzed("GET /api/orgs/:slug/members", "json", {
    path: orgPath("/members"),
    headers: bearerHeaders,
  }),
  fuzzed("PATCH /api/orgs/:slug/members/:user_id", "json", {
    path: orgPath("/members/:user_id", slugs, { user_id: ids }),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ role: roles })),
  }),
  fuzzed("DELETE /api/orgs/:slug/members/:user_id", "json", {
    path: orgPath("/members/:user_id", deletableSlugs, { user_id: ids }),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/orgs/:slug/invitations", "json", {
    path: orgPath("/invitations"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ email: emails, role: roles })),
  }),
  fuzzed("GET /api/orgs/:slug/invitations", "json", {
    path: orgPath("/invitations"),
    headers: bearerHeaders,
  }),
  fuzzed("DELETE /api/orgs/:slug/invitations/:id", "json", {
    path: orgPath("/invitations/:id", slugs, { id: ids }),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/orgs/:slug/keys", "json", {
    path: orgPath("/keys"),
    headers: bearerHeaders,
    payload: jsonPayload(asJson({ name: fc.string({ maxLength: 120 }), role: roles })),
  }),
  fuzzed("GET /api/orgs/:slug/keys", "json", { path: orgPath("/keys"), headers: bearerHeaders }),
  fuzzed("DELETE /api/orgs/:slug/keys/:id", "json", {
    path: orgPath("/keys/:id", slugs, {
      id: fc.oneof(fc.constantFrom("{victim-org-key}", "0", "999999999"), hostileSegment),
    }),
    headers: bearerHeaders,
  }),
  fuzzed("POST /api/invitations/:token/accept", "json", {
    path: pathOf("/api/invitations/:token/accept", { token: invitationTokens }),
    headers: bearerHeaders,
  }),
  // The page the invitation mail links to: signed in or not, any token, any form.
  page("GET /invitations/:token", {
    path: pathOf("/invitations/:token", { token: invitationTokens }),
  }),
  page("POST /invitations/:token", {
    path: pathOf("/invitations/:token", { token: invitationTokens }),
    payload: formPayload({ accept: fc.constantFrom("1", "") }),
  }),
  // The pages: the list, creating one, an organization's page, inviting, leaving (the fixture
  // organization's only owner cannot leave it, so it stays for every other case).
  page("GET /orgs", { path: pathOf("/orgs", {}, ignoredQuery) }),
  page("POST /orgs", {
    path: pathOf("/orgs"),
    payload: formPayload({
      name: fc.constantFrom("Fuzz page org", "", " ", "x".repeat(101)),
      slug: fc.constantFrom("", "{org}", "fuzz-page", "NEW", "a"),
    }),
  }),
  page("GET /orgs/:slug", { path: pathOf("/orgs/:slug", { slug: slugs }) }),
  page("POST /orgs/:slug/invitations", {
    path: pathOf("/orgs/:slug/invitations", { slug: slugs }),
    payload: formPayload({ email: emails, role: roles }),
  }),
  page("POST /orgs/:slug/leave", { path: pathOf("/orgs/:slug/leave", { slug: slugs }) }),
  // A row's forms: the fixture's owner is its only owner (a 409 to demote or remove), anyone
  // else no member (a 404); no invitation of the fixture is revoked.
  page("POST /orgs/:slug/members/:user_id/role", {
    path: pathOf("/orgs/:slug/members/:user_id/role", { slug: slugs, user_id: ids }),
    payload: formPayload({ role: roles }),
  }),
  page("POST /orgs/:slug/members/:user_id/remove", {
    path: pathOf("/orgs/:slug/members/:user_id/remove", { slug: slugs, user_id: ids }),
  }),
  page("POST /orgs/:slug/invitations/:id/revoke", {
    path: pathOf("/orgs/:slug/invitations/:id/revoke", {
      slug: slugs,
      id: fc.oneof(fc.constantFrom("0", "-1", "999999999"), hostileSegment),
    }),
  }),
  // Renaming: the name only, as the JSON PATCH case, so the fixture keeps its address (a
  // hostile value such as "null" is a slug) for every other case.
  page("POST /orgs/:slug/settings", {
    path: pathOf("/orgs/:slug/settings", { slug: slugs }),
    payload: formPayload({ name: fc.constantFrom("Fuzz org", "", " ", "x".repeat(101)) }),
  }),
  // Deleting: the spare organization only, its slug typed again or not.
  page("POST /orgs/:slug/delete", {
    path: pathOf("/orgs/:slug/delete", { slug: deletableSlugs }),
    payload: formPayload({ confirm: fc.constantFrom("victim-org", "", "VICTIM-ORG", "fuzz-org") }),
  }),
];

const endpointIds = fc.oneof(fc.constantFrom("ep_none", "{owner-id}"), hostileSegment);

/**
 * The endpoint routes and the replay under `base` (`/api`, or `/api/orgs/:slug` with `slug`'s
 * values): list, create, show, change, delete, rotate, attempts, test event, replay.
 */
function endpointRoutesUnder(
  base: string,
  params: Record<string, fc.Arbitrary<string>> = {},
): FuzzedRoute[] {
  const path = `${base}/webhook_endpoints`;
  const route = (
    method: string,
    suffix: string,
    extra: Partial<Pick<Parameters<typeof fuzzed>[2], "payload">> = {},
  ) =>
    fuzzed(`${method} ${path}${suffix}`, "json", {
      path: pathOf(`${path}${suffix}`, suffix === "" ? params : { ...params, id: endpointIds }),
      headers: bearerHeaders,
      ...extra,
    });
  return [
    route("GET", ""),
    route("POST", "", {
      payload: jsonPayload({
        ...asJson({ url: fc.constantFrom("http://10.0.0.1/", "https://hooks.example/x", "nope") }),
        events: fc.constantFrom('["note.*"]', '["post.created"]', '"note.created"', "[1]"),
        headers: fc.constantFrom('{"X-A":"b"}', '{"Host":"x"}', "[]", '{"X-A":1}'),
        rate_limit: fc.constantFrom("5", "0", '"5"', "null", "1e9"),
      }),
    }),
    route("GET", "/:id"),
    route("PATCH", "/:id", {
      payload: jsonPayload({ enabled: fc.constantFrom("true", "false", '"no"') }),
    }),
    route("DELETE", "/:id"),
    route("POST", "/:id/rotate_secret"),
    route("GET", "/:id/attempts"),
    route("POST", "/:id/test", {
      payload: jsonPayload(
        asJson({ type: fc.constantFrom("note.created", "project.created", "") }),
      ),
    }),
    fuzzed(`POST ${base}/webhook_messages/:id/replay`, "json", {
      path: pathOf(`${base}/webhook_messages/:id/replay`, {
        ...params,
        id: fc.oneof(fc.constant("msg_none"), hostileSegment),
      }),
      headers: bearerHeaders,
    }),
  ];
}

/** A page route `METHOD template` with the cases of `path` (and `payload`). */
const pageRoute = (
  method: string,
  template: string,
  path: fc.Arbitrary<string>,
  extra: Partial<Pick<Parameters<typeof page>[1], "payload">> = {},
) => page(`${method} ${template}`, { path, ...extra });

/**
 * The webhooks page at `page` (`/account/webhooks`, or `/orgs/:slug/webhooks` with `slug`'s
 * values) and its forms: add, enable, disable, rotate, remove, replay.
 */
function endpointPagesUnder(
  page: string,
  params: Record<string, fc.Arbitrary<string>> = {},
): FuzzedRoute[] {
  const withId = { ...params, id: endpointIds };
  return [
    pageRoute("GET", page, pathOf(page, params, ignoredQuery)),
    pageRoute("POST", page, pathOf(page, params), {
      payload: formPayload({
        url: fc.constantFrom("http://10.0.0.1/", "https://hooks.example/x", "nope", ""),
        description: fc.constantFrom("Fuzz", "", "x".repeat(1001)),
        events: fc.constantFrom("note.created", "project.created", "nothing.sent", ""),
      }),
    }),
    ...["enable", "disable", "rotate_secret", "delete"].map((action) =>
      pageRoute("POST", `${page}/:id/${action}`, pathOf(`${page}/:id/${action}`, withId)),
    ),
    pageRoute(
      "POST",
      `${page}/messages/:id/replay`,
      pathOf(`${page}/messages/:id/replay`, {
        ...params,
        id: fc.oneof(fc.constant("msg_none"), hostileSegment),
      }),
    ),
  ];
}

/**
 * `/api/webhook_endpoints/*`, the replay of a message and the event catalog, and the same
 * routes of an organization under `/api/orgs/:slug`; the webhooks pages of a user and of an
 * organization (`/account/webhooks`, `/orgs/:slug/webhooks`).
 */
export const webhookEndpointRoutes: FuzzedRoute[] = [
  fuzzed("GET /api/webhook_event_types", "json", {
    path: pathOf("/api/webhook_event_types", {}, ignoredQuery),
  }),
  ...endpointRoutesUnder("/api"),
  ...endpointRoutesUnder("/api/orgs/:slug", { slug: slugs }),
  ...endpointPagesUnder("/account/webhooks"),
  ...endpointPagesUnder("/orgs/:slug/webhooks", { slug: slugs }),
];
