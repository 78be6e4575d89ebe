// The JSON routes of `@tessera/organizations/routes`, mounted alone over the memory store with a
// fake bearer authentication (`Authorization: Bearer <user id>`): who sees what, the member and
// role rules, and invitations from their mail to their acceptance.
import type { Clock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import {
  type Authenticate,
  authenticated,
  httpMessages,
  jsonAnswer,
  type Route,
  type RouteContext,
  routeRequests,
  unauthorized,
  withMiddleware,
} from "@tessera/http";
import { type Mailer, MemoryMailer } from "@tessera/mail";
import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { MemoryOrganizationStore } from "../src/memory-organization-store.js";
import type { Organization } from "../src/organization.js";
import { defineRoles } from "../src/roles.js";
import {
  INVITATION_LIFETIME_MS,
  MAXIMUM_ORGANIZATION_BODY_BYTES,
  type OrganizationRoutesOptions,
  type OrganizationUser,
  organizationMember,
  organizationOwner,
  organizationRecords,
  organizationRoutes,
} from "../src/routes.js";

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
const APP_URL = "https://app.example";

/** The users the fake authentication knows, by id. */
const PEOPLE: Readonly<Record<number, OrganizationUser & { name: string }>> = {
  1: { id: 1, email: "ann@example.com", name: "Ann", confirmedAt: T0 },
  2: { id: 2, email: "bob@example.com", name: "Bob", confirmedAt: T0 },
  3: { id: 3, email: "cat@example.com", name: "Cat", confirmedAt: T0 },
  4: { id: 4, email: "dan@example.com", name: "Dan", confirmedAt: null },
  5: { id: 5, email: "eve@example.com", name: "Eve", confirmedAt: T0 },
};

const ANN = 1;
const BOB = 2;
const CAT = 3;
const DAN = 4;
const EVE = 5;

/** `Authorization: Bearer <id>` of a known user; anything else is a 401. */
const bearerUser: Authenticate<{ readonly user: OrganizationUser }> = async (request, context) => {
  const id = Number(request.headers.get("authorization")?.replace(/^Bearer /, ""));
  const person = PEOPLE[id];
  if (!person)
    return { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }, context.locale) };
  const { name: _name, ...user } = person;
  return { ok: true, value: { user } };
};

interface SendOptions {
  readonly body?: unknown;
  /** The raw body, sent as it is. */
  readonly raw?: string;
  readonly headers?: Record<string, string>;
  /** The origin the request is addressed to (what a forged `Host` makes it). */
  readonly origin?: string;
}

type Mounted = Partial<Omit<OrganizationRoutesOptions, "organizations" | "authenticate">> & {
  readonly organizations?: MemoryOrganizationStore;
};

/** The routes over a fresh memory store; `send` keeps every answer's text in `answers`. */
function mounted(options: Mounted = {}) {
  const store = options.organizations ?? new MemoryOrganizationStore((id) => PEOPLE[id]);
  const mailer = new MemoryMailer();
  let now = T0;
  const clock: Clock = () => now;
  const deleted: Organization[] = [];
  const handle = routeRequests(
    organizationRoutes({
      organizations: store,
      authenticate: bearerUser,
      mailer,
      appUrl: APP_URL,
      allowedOrigins: ["https://eu.app.example"],
      clock,
      beforeOrganizationDeleted: (organization) => {
        deleted.push(organization);
      },
      ...options,
    }),
  );
  const answers: string[] = [];
  const send = async (
    method: string,
    path: string,
    who: number | undefined,
    sent: SendOptions = {},
    locale = FRENCH,
  ) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...sent.headers };
    if (who !== undefined) headers.authorization = `Bearer ${who}`;
    const body = sent.raw ?? (sent.body === undefined ? undefined : JSON.stringify(sent.body));
    const init = { method, headers, ...(body === undefined ? {} : { body }) };
    const request = new Request(`${sent.origin ?? APP_URL}${path}`, init);
    const response = await handle(request, { locale });
    if (!response) throw new Error(`no route for ${method} ${path}`);
    answers.push(await response.clone().text());
    return response;
  };
  const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
  /** Ann's organization `acme`, with Bob, Cat and Eve as `roles` give them (default none). */
  const acme = async (roles: { [id: number]: string } = {}) => {
    expect(
      (await send("POST", "/api/orgs", ANN, { body: { name: "Acme", slug: "acme" } })).status,
    ).toBe(201);
    for (const [id, role] of Object.entries(roles)) await join(Number(id), role);
  };
  /** Invites `who` to `acme` as `role` (by Ann) and accepts it as them. */
  const join = async (who: number, role: string) => {
    const email = PEOPLE[who]?.email;
    const invited = await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email, role },
    });
    expect(invited.status).toBe(201);
    const accepted = await send("POST", `/api/invitations/${tokenOf(mailer, email)}/accept`, who);
    expect(accepted.status).toBe(200);
  };
  return {
    store,
    mailer,
    send,
    json,
    acme,
    join,
    answers,
    deleted,
    setNow: (time: number) => {
      now = time;
    },
  };
}

/** The token of the last invitation mailed to `email`, read from its link. */
function tokenOf(mailer: MemoryMailer, email: string | undefined): string {
  const mail = mailer.last(email);
  const token = mail && /\/invitations\/([A-Za-z0-9_-]{43})\n/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return token;
}

/** Every route of an organization, with a body its handler would take. */
const ORGANIZATION_ROUTES: ReadonlyArray<readonly [string, string, unknown?]> = [
  ["GET", "/api/orgs/acme"],
  ["PATCH", "/api/orgs/acme", { name: "Renamed" }],
  ["DELETE", "/api/orgs/acme"],
  ["GET", "/api/orgs/acme/members"],
  ["PATCH", "/api/orgs/acme/members/1", { role: "admin" }],
  ["DELETE", "/api/orgs/acme/members/1"],
  ["GET", "/api/orgs/acme/invitations"],
  ["POST", "/api/orgs/acme/invitations", { email: "new@example.com", role: "member" }],
  ["DELETE", "/api/orgs/acme/invitations/1"],
];

describe("organizationRoutes: organizations", () => {
  it("create one with its creator as owner, its slug written or made from its name", async () => {
    const { send, json } = mounted();
    const created = await send("POST", "/api/orgs", ANN, {
      body: { name: "Acme Corp", slug: "acme" },
    });
    expect(created.status).toBe(201);
    expect(await json(created)).toEqual({
      id: 1,
      name: "Acme Corp",
      slug: "acme",
      role: "owner",
      created_at: "2026-03-01 09:00:00",
    });
    const derived = await send("POST", "/api/orgs", ANN, {
      body: { name: "  Ünïted Widgets, Inc.  " },
    });
    expect(await json(derived)).toMatchObject({
      name: "Ünïted Widgets, Inc.",
      slug: "united-widgets-inc",
    });
    const reserved = await send("POST", "/api/orgs", ANN, { body: { name: "New" } });
    expect(await json(reserved)).toMatchObject({ slug: "org-new" });
  });

  it("refuse a slug that is taken, malformed or reserved, and a name that is blank, too long or has control characters (422)", async () => {
    const { send, json } = mounted();
    await send("POST", "/api/orgs", ANN, { body: { name: "Acme", slug: "acme" } });
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ name: "Other", slug: "acme" }, { slug: ["has already been taken"] }],
      [{ name: "Acme" }, { slug: ["has already been taken"] }],
      [{ name: "Other", slug: "ab" }, { slug: ["must be 3 to 40 characters"] }],
      [
        { name: "Other", slug: "Big-Co" },
        { slug: ["may hold only lower-case letters, digits and single hyphens inside"] },
      ],
      [{ name: "Other", slug: "settings" }, { slug: ["is reserved"] }],
      [{ name: "Other", slug: "" }, { slug: ["can't be blank"] }],
      [{ slug: "fine" }, { name: ["can't be blank"] }],
      [{ name: "   " }, { name: ["can't be blank"] }],
      [{ name: "x".repeat(101) }, { name: ["is too long (maximum is 100 characters)"] }],
      [{ name: "Acme\r\nBcc: x@evil.example" }, { name: ["must not contain control characters"] }],
    ];
    for (const [body, fields] of cases) {
      const refused = await send("POST", "/api/orgs", ANN, { body });
      expect(refused.status).toBe(422);
      expect(await json(refused)).toEqual({
        error: { code: "validation_failed", message: "Validation failed", status: 422, fields },
      });
    }
    // 100 characters are a name, even when they are 200 UTF-16 units.
    const long = await send("POST", "/api/orgs", ANN, {
      body: { name: "😀".repeat(100), slug: "smiles" },
    });
    expect(long.status).toBe(201);
  });

  it("refuse a body of the wrong shape with a 400: unknown field, wrong type, NUL, too large, not JSON", async () => {
    const { send, json } = mounted();
    const refusals: Array<[SendOptions, string]> = [
      [{ body: { name: "Acme", owner: 3 } }, "Unknown field owner."],
      [{ body: { name: 42 } }, "name must be a string."],
      [{ body: { name: null } }, "name must be a string."],
      [{ body: { name: "Ac\u0000me" } }, "name must not contain NUL characters."],
      [{ raw: '{"name":"\\ud800"}' }, "name must not contain a lone surrogate."],
      [
        { body: ["Acme"] },
        "Failed to deserialize the JSON body into the target type: invalid type: array, expected an object",
      ],
      [
        { raw: "{" },
        "Failed to deserialize the JSON body into the target type: the body is not valid JSON",
      ],
      [
        { body: { name: "x".repeat(MAXIMUM_ORGANIZATION_BODY_BYTES) } },
        `Failed to deserialize the JSON body into the target type: the body is larger than ${MAXIMUM_ORGANIZATION_BODY_BYTES} bytes`,
      ],
    ];
    for (const [sent, message] of refusals) {
      const refused = await send("POST", "/api/orgs", ANN, sent);
      expect(refused.status).toBe(400);
      expect((await json(refused)).error).toMatchObject({ code: "bad_request", message });
    }
    // A declared length over the limit is refused before a byte is read.
    const declared = await send("POST", "/api/orgs", ANN, {
      raw: "{}",
      headers: { "content-length": String(MAXIMUM_ORGANIZATION_BODY_BYTES + 1) },
    });
    expect(declared.status).toBe(400);
    expect(await send("GET", "/api/orgs", ANN).then(json)).toEqual([]);
  });

  it("answer 401 to a request without credentials, on every route", async () => {
    const { send, acme } = mounted();
    await acme();
    const routes = [
      ["GET", "/api/orgs"],
      ["POST", "/api/orgs"],
      ["POST", "/api/invitations/x/accept"],
      ...ORGANIZATION_ROUTES,
    ];
    for (const [method, path, body] of routes) {
      const refused = await send(method as string, path as string, undefined, { body });
      expect([method, path, refused.status]).toEqual([method, path, 401]);
    }
  });

  it("list the user's organizations with their role, and show one", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "viewer" });
    await send("POST", "/api/orgs", BOB, { body: { name: "Bob's Shop", slug: "bobs-shop" } });
    expect(await send("GET", "/api/orgs", BOB).then(json)).toEqual([
      { id: 1, name: "Acme", slug: "acme", role: "viewer", created_at: "2026-03-01 09:00:00" },
      {
        id: 2,
        name: "Bob's Shop",
        slug: "bobs-shop",
        role: "owner",
        created_at: "2026-03-01 09:00:00",
      },
    ]);
    expect(await send("GET", "/api/orgs", ANN).then(json)).toEqual([
      { id: 1, name: "Acme", slug: "acme", role: "owner", created_at: "2026-03-01 09:00:00" },
    ]);
    const shown = await send("GET", "/api/orgs/acme", BOB);
    expect(await json(shown)).toEqual({
      id: 1,
      name: "Acme",
      slug: "acme",
      role: "viewer",
      created_at: "2026-03-01 09:00:00",
    });
  });

  it("change the name and slug with organization:update; a taken slug is a 422", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "admin" });
    await send("POST", "/api/orgs", ANN, { body: { name: "Other", slug: "other" } });
    const taken = await send("PATCH", "/api/orgs/acme", BOB, { body: { slug: "other" } });
    expect(taken.status).toBe(422);
    expect((await json(taken)).error).toMatchObject({
      fields: { slug: ["has already been taken"] },
    });
    const changed = await send("PATCH", "/api/orgs/acme", BOB, {
      body: { name: "Acme Ltd", slug: "acme-ltd" },
    });
    expect(changed.status).toBe(200);
    expect(await json(changed)).toMatchObject({
      name: "Acme Ltd",
      slug: "acme-ltd",
      role: "admin",
    });
    expect((await send("GET", "/api/orgs/acme", ANN)).status).toBe(404);
    expect(await send("GET", "/api/orgs/acme-ltd", ANN).then(json)).toMatchObject({
      name: "Acme Ltd",
    });
    const unchanged = await send("PATCH", "/api/orgs/acme-ltd", BOB, { body: {} });
    expect(await json(unchanged)).toMatchObject({ name: "Acme Ltd", slug: "acme-ltd" });
    const blank = await send("PATCH", "/api/orgs/acme-ltd", BOB, { body: { name: "" } });
    expect((await json(blank)).error).toMatchObject({ fields: { name: ["can't be blank"] } });
  });

  it("delete one with organization:delete (204), after the app's hook, and then it is gone", async () => {
    const { send, json, acme, deleted } = mounted();
    await acme({ [BOB]: "admin" });
    const refused = await send("DELETE", "/api/orgs/acme", BOB);
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toMatchObject({
      code: "forbidden",
      message: "You need the organization:delete permission.",
    });
    expect(deleted).toEqual([]);
    const gone = await send("DELETE", "/api/orgs/acme", ANN);
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
    expect(deleted).toEqual([{ id: 1, name: "Acme", slug: "acme", createdAt: T0 }]);
    expect((await send("GET", "/api/orgs/acme", ANN)).status).toBe(404);
    expect((await send("GET", "/api/orgs/acme", BOB)).status).toBe(404);
    expect(await send("GET", "/api/orgs", BOB).then(json)).toEqual([]);
  });

  it("keep the organization when the app's deletion hook throws, so the delete can be made again", async () => {
    let fail = true;
    const { send, acme } = mounted({
      beforeOrganizationDeleted: () => {
        if (fail) throw new Error("the records could not be deleted");
      },
    });
    await acme();
    await expect(send("DELETE", "/api/orgs/acme", ANN)).rejects.toThrow("could not be deleted");
    expect((await send("GET", "/api/orgs/acme", ANN)).status).toBe(200);
    fail = false;
    expect((await send("DELETE", "/api/orgs/acme", ANN)).status).toBe(204);
  });
});

describe("organizationRoutes: who sees what", () => {
  it("answer a non-member 404 `not_found` on every route of the organization, as for no such organization", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "member" });
    for (const [method, path, body] of ORGANIZATION_ROUTES) {
      for (const route of [path, path.replace("/acme", "/nope"), path.replace("/acme", "/%00")]) {
        const refused = await send(method, route, CAT, { body });
        expect([method, route, refused.status]).toEqual([method, route, 404]);
        expect(await json(refused)).toEqual({
          error: {
            code: "not_found",
            message: httpMessages.english["http.not_found"],
            status: 404,
          },
        });
      }
    }
    // None of it happened.
    expect(await send("GET", "/api/orgs/acme", ANN).then(json)).toMatchObject({ name: "Acme" });
    expect(await send("GET", "/api/orgs/acme/members", ANN).then(json)).toHaveLength(2);
  });

  it("look the membership up once a request, and not at all for a slug no organization can have", async () => {
    const slugs: string[] = [];
    const store = new MemoryOrganizationStore((id) => PEOPLE[id]);
    const findMembership = store.findMembership.bind(store);
    store.findMembership = async (slug, userId) => {
      slugs.push(slug);
      return findMembership(slug, userId);
    };
    const { send, acme } = mounted({ organizations: store });
    await acme();
    slugs.length = 0;
    for (const [method, path, body] of ORGANIZATION_ROUTES) {
      await send(method, path, ANN, { body });
    }
    expect(slugs).toEqual(ORGANIZATION_ROUTES.map(() => "acme"));
    slugs.length = 0;
    for (const slug of ["%00", "a", "Acme", "a--b", "x".repeat(41)]) {
      expect((await send("GET", `/api/orgs/${slug}/members`, ANN)).status).toBe(404);
    }
    expect(slugs).toEqual([]);
  });

  it("answer a viewer 403 `forbidden` naming the permission on every write of another member", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "viewer", [CAT]: "member" });
    const writes: Array<[string, string, unknown, string]> = [
      ["PATCH", "/api/orgs/acme", { name: "Mine" }, "organization:update"],
      ["DELETE", "/api/orgs/acme", undefined, "organization:delete"],
      ["PATCH", "/api/orgs/acme/members/3", { role: "viewer" }, "members:change_role"],
      ["DELETE", "/api/orgs/acme/members/3", undefined, "members:remove"],
      ["GET", "/api/orgs/acme/invitations", undefined, "members:invite"],
      [
        "POST",
        "/api/orgs/acme/invitations",
        { email: "x@example.com", role: "viewer" },
        "members:invite",
      ],
      ["DELETE", "/api/orgs/acme/invitations/1", undefined, "members:invite"],
    ];
    for (const [method, path, body, permission] of writes) {
      const refused = await send(method, path, BOB, { body });
      expect([method, path, refused.status]).toEqual([method, path, 403]);
      expect(await json(refused)).toEqual({
        error: {
          code: "forbidden",
          message: `You need the ${permission} permission.`,
          status: 403,
        },
      });
    }
    expect(await send("GET", "/api/orgs/acme", ANN).then(json)).toMatchObject({ name: "Acme" });
    expect(await send("GET", "/api/orgs/acme/members", BOB).then(json)).toHaveLength(3);
  });

  it("write refusals in the request's locale, with its language headers", async () => {
    const { send, acme } = mounted();
    await acme({ [BOB]: "viewer" });
    expect(languageOf(await send("GET", "/api/orgs/acme", CAT))).toEqual(inFrench(404));
    expect(languageOf(await send("PATCH", "/api/orgs/acme", BOB, { body: { name: "x" } }))).toEqual(
      inFrench(403),
    );
    expect(languageOf(await send("POST", "/api/orgs", ANN, { body: { nom: "x" } }))).toEqual(
      inFrench(400),
    );
    expect(languageOf(await send("POST", "/api/orgs", ANN, { body: { name: "" } }))).toEqual(
      inFrench(422),
    );
    const french = {
      tag: "fr",
      catalog: { "organizations.permission_required": "Il faut {permission}." },
    };
    const refused = await send("DELETE", "/api/orgs/acme", BOB, {}, french);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "Il faut organization:delete.",
    );
  });

  it("count writes per user when given a limiter (429 once over), never reads", async () => {
    const counts = new Map<string, number>();
    const { send, acme } = mounted({
      // Three attempts a key, then a minute's wait.
      rateLimiter: {
        attempt: async (group, key) => {
          const count = (counts.get(`${group} ${key}`) ?? 0) + 1;
          counts.set(`${group} ${key}`, count);
          return { allowed: count <= 3, retryAfterSeconds: 60 };
        },
      },
    });
    await acme(); // one write
    expect((await send("PATCH", "/api/orgs/acme", ANN, { body: { name: "A" } })).status).toBe(200);
    for (let read = 0; read < 5; read++)
      expect((await send("GET", "/api/orgs/acme", ANN)).status).toBe(200);
    expect((await send("PATCH", "/api/orgs/acme", ANN, { body: { name: "B" } })).status).toBe(200);
    const limited = await send("PATCH", "/api/orgs/acme", ANN, { body: { name: "C" } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    // Another user counts apart; a request without credentials is a 401 and counts for no one.
    expect((await send("POST", "/api/orgs", undefined, { body: { name: "Zed" } })).status).toBe(
      401,
    );
    expect((await send("POST", "/api/orgs", BOB, { body: { name: "Bob Co" } })).status).toBe(201);
    expect([...counts.keys()]).toEqual([
      "organization_writes user:1",
      "organization_writes user:2",
    ]);
  });
});

describe("organizationRoutes: members", () => {
  it("list the members with their email, name, role and join time", async () => {
    const { send, json, acme, join, setNow } = mounted();
    await acme();
    setNow(T0 + 60_000);
    await join(BOB, "member");
    expect(await send("GET", "/api/orgs/acme/members", BOB).then(json)).toEqual([
      {
        user_id: 1,
        email: "ann@example.com",
        name: "Ann",
        role: "owner",
        joined_at: "2026-03-01 09:00:00",
      },
      {
        user_id: 2,
        email: "bob@example.com",
        name: "Bob",
        role: "member",
        joined_at: "2026-03-01 09:01:00",
      },
    ]);
  });

  it("change a role with members:change_role, to a role the actor could give; an unknown role is a 422", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "admin", [CAT]: "viewer" });
    const promoted = await send("PATCH", "/api/orgs/acme/members/3", BOB, {
      body: { role: "member" },
    });
    expect(promoted.status).toBe(200);
    expect(await json(promoted)).toMatchObject({
      user_id: 3,
      email: "cat@example.com",
      role: "member",
    });
    const unknown = await send("PATCH", "/api/orgs/acme/members/3", BOB, {
      body: { role: "emperor" },
    });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).error).toMatchObject({
      fields: { role: ["is not included in the list"] },
    });
    const missing = await send("PATCH", "/api/orgs/acme/members/3", BOB, { body: {} });
    expect((await json(missing)).error).toMatchObject({ fields: { role: ["can't be blank"] } });
    // An admin cannot make an owner, nor demote one.
    const above = await send("PATCH", "/api/orgs/acme/members/3", BOB, { body: { role: "owner" } });
    expect(above.status).toBe(403);
    expect((await json(above)).error).toMatchObject({ code: "role_not_grantable" });
    const demote = await send("PATCH", "/api/orgs/acme/members/1", BOB, {
      body: { role: "viewer" },
    });
    expect(demote.status).toBe(403);
    expect((await json(demote)).error).toMatchObject({ code: "role_not_grantable" });
    // A member that is none, or a path id that is no id, is a 404.
    for (const path of [
      "/api/orgs/acme/members/5",
      "/api/orgs/acme/members/abc",
      "/api/orgs/acme/members/0",
    ]) {
      expect((await send("PATCH", path, BOB, { body: { role: "member" } })).status).toBe(404);
      expect((await send("DELETE", path, BOB)).status).toBe(404);
    }
    expect(await send("GET", "/api/orgs/acme", CAT).then(json)).toMatchObject({ role: "member" });
  });

  it("never leave an organization without an owner: the last one can be neither demoted nor leave (409)", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "admin" });
    const demoted = await send("PATCH", "/api/orgs/acme/members/1", ANN, {
      body: { role: "admin" },
    });
    expect(demoted.status).toBe(409);
    expect(await json(demoted)).toEqual({
      error: {
        code: "last_owner",
        message:
          "An organization needs an owner: make another member an owner before this one leaves or changes role.",
        status: 409,
      },
    });
    const left = await send("DELETE", "/api/orgs/acme/members/1", ANN);
    expect(left.status).toBe(409);
    expect((await json(left)).error).toMatchObject({ code: "last_owner" });
    // With a second owner, the first may go.
    expect(
      (await send("PATCH", "/api/orgs/acme/members/2", ANN, { body: { role: "owner" } })).status,
    ).toBe(200);
    expect((await send("DELETE", "/api/orgs/acme/members/1", ANN)).status).toBe(204);
    expect((await send("GET", "/api/orgs/acme", ANN)).status).toBe(404);
    expect((await send("DELETE", "/api/orgs/acme/members/2", BOB)).status).toBe(409);
  });

  it("let any member leave without members:remove, and a removed member loses access at once", async () => {
    const { send, json, acme } = mounted();
    await acme({ [BOB]: "viewer", [CAT]: "member", [EVE]: "admin" });
    expect((await send("DELETE", "/api/orgs/acme/members/2", BOB)).status).toBe(204);
    expect((await send("GET", "/api/orgs/acme", BOB)).status).toBe(404);
    expect((await send("DELETE", "/api/orgs/acme/members/3", EVE)).status).toBe(204);
    expect((await send("GET", "/api/orgs/acme/members", CAT)).status).toBe(404);
    expect(
      (
        await send("POST", "/api/orgs/acme/invitations", CAT, {
          body: { email: "x@example.com", role: "viewer" },
        })
      ).status,
    ).toBe(404);
    // An admin cannot remove an owner.
    const owner = await send("DELETE", "/api/orgs/acme/members/1", EVE);
    expect(owner.status).toBe(403);
    expect((await json(owner)).error).toMatchObject({ code: "role_not_grantable" });
    const members = (await send("GET", "/api/orgs/acme/members", ANN).then(
      json,
    )) as unknown as Array<{
      user_id: number;
    }>;
    expect(members.map((member) => member.user_id)).toEqual([1, 5]);
  });

  it("take the app's own roles: a custom role is granted and its permissions checked", async () => {
    const roles = defineRoles({ billing: ["billing:manage", "records:read"] });
    const { send, json, acme } = mounted({ roles });
    await acme({ [BOB]: "billing" });
    expect(await send("GET", "/api/orgs/acme", BOB).then(json)).toMatchObject({ role: "billing" });
    const refused = await send("PATCH", "/api/orgs/acme", BOB, { body: { name: "x" } });
    expect((await json(refused)).error).toMatchObject({
      message: "You need the organization:update permission.",
    });
  });
});

describe("organizationRoutes: invitations", () => {
  it("send a mail with the link to accept, and answer 201 with the invitation but never its token", async () => {
    const { send, json, acme, mailer, answers } = mounted();
    await acme();
    const invited = await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "  Bob@Example.COM ", role: "member" },
    });
    expect(invited.status).toBe(201);
    expect(await json(invited)).toEqual({
      id: 1,
      email: "bob@example.com",
      role: "member",
      expires_at: "2026-03-08 09:00:00",
      created_at: "2026-03-01 09:00:00",
    });
    expect(mailer.sent).toHaveLength(1);
    const mail = mailer.sent[0]!;
    expect(mail.to).toBe("bob@example.com");
    expect(mail.subject).toBe("You're invited to join Acme");
    const token = tokenOf(mailer, "bob@example.com");
    expect(mail.text).toContain(`\n${APP_URL}/invitations/${token}\n`);
    expect(mail.text).toContain("ann@example.com invited you to join Acme as member.");
    expect(mail.html).toContain(`<a href="${APP_URL}/invitations/${token}">`);
    const listed = await send("GET", "/api/orgs/acme/invitations", ANN);
    expect(await json(listed)).toEqual([
      {
        id: 1,
        email: "bob@example.com",
        role: "member",
        expires_at: "2026-03-08 09:00:00",
        created_at: "2026-03-01 09:00:00",
      },
    ]);
    await send("POST", `/api/invitations/${token}/accept`, BOB);
    expect(answers.some((answer) => answer.includes(token))).toBe(false);
  });

  it("point the link at the app's origin, not at a forged Host; an allowed origin keeps its own", async () => {
    const { send, acme, mailer } = mounted();
    await acme();
    const body = { email: "bob@example.com", role: "viewer" };
    await send("POST", "/api/orgs/acme/invitations", ANN, { body, origin: "https://evil.example" });
    expect(mailer.last()?.text).toContain(`${APP_URL}/invitations/`);
    expect(mailer.last()?.text).not.toContain("evil.example");
    expect(mailer.last()?.html).not.toContain("evil.example");
    await send("POST", "/api/orgs/acme/invitations", ANN, {
      body,
      origin: "https://eu.app.example",
    });
    expect(mailer.last()?.text).toContain("https://eu.app.example/invitations/");
  });

  it("escape the organization's name in the mail's HTML", async () => {
    const { send, mailer } = mounted();
    await send("POST", "/api/orgs", ANN, { body: { name: "<b>Acme</b> & Co", slug: "acme" } });
    await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "bob@example.com", role: "viewer" },
    });
    expect(mailer.last()?.subject).toBe("You're invited to join <b>Acme</b> & Co");
    expect(mailer.last()?.html).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; Co");
    expect(mailer.last()?.html).not.toContain("<b>");
  });

  it("refuse a role above the inviter's own (403), an unknown role or a bad address (422), a member's address (422)", async () => {
    const { send, json, acme, mailer } = mounted();
    await acme({ [BOB]: "admin" });
    const above = await send("POST", "/api/orgs/acme/invitations", BOB, {
      body: { email: "x@example.com", role: "owner" },
    });
    expect(above.status).toBe(403);
    expect((await json(above)).error).toMatchObject({
      code: "role_not_grantable",
      message: "Your role cannot give or take away the owner role: it may do more than yours.",
    });
    const bad = await send("POST", "/api/orgs/acme/invitations", BOB, {
      body: { email: "not an address", role: "chief" },
    });
    expect(bad.status).toBe(422);
    expect((await json(bad)).error).toMatchObject({
      fields: { email: ["is invalid"], role: ["is not included in the list"] },
    });
    const blank = await send("POST", "/api/orgs/acme/invitations", BOB, { body: {} });
    expect((await json(blank)).error).toMatchObject({
      fields: { email: ["can't be blank"], role: ["can't be blank"] },
    });
    const member = await send("POST", "/api/orgs/acme/invitations", BOB, {
      body: { email: "ANN@example.com", role: "viewer" },
    });
    expect(member.status).toBe(422);
    expect((await json(member)).error).toMatchObject({
      fields: { email: ["is already a member of this organization"] },
    });
    expect(mailer.sent).toHaveLength(1); // Bob's own, from acme()
    expect(
      (
        await send("POST", "/api/orgs/acme/invitations", BOB, {
          body: { email: "x@example.com", role: "admin" },
        })
      ).status,
    ).toBe(201);
  });

  it("revoke a pending invitation (204), which then cannot be accepted (404) nor revoked again", async () => {
    const { send, json, acme, mailer } = mounted();
    await acme();
    await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "bob@example.com", role: "member" },
    });
    expect((await send("DELETE", "/api/orgs/acme/invitations/1", ANN)).status).toBe(204);
    expect(await send("GET", "/api/orgs/acme/invitations", ANN).then(json)).toEqual([]);
    expect((await send("DELETE", "/api/orgs/acme/invitations/1", ANN)).status).toBe(404);
    expect((await send("DELETE", "/api/orgs/acme/invitations/x", ANN)).status).toBe(404);
    const accepted = await send(
      "POST",
      `/api/invitations/${tokenOf(mailer, "bob@example.com")}/accept`,
      BOB,
    );
    expect(accepted.status).toBe(404);
    expect((await json(accepted)).error).toMatchObject({ code: "not_found" });
  });

  it("revoke nothing of another organization by its id", async () => {
    const { send, acme } = mounted();
    await acme();
    await send("POST", "/api/orgs", BOB, { body: { name: "Bob Co", slug: "bob-co" } });
    await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "cat@example.com", role: "member" },
    });
    expect((await send("DELETE", "/api/orgs/bob-co/invitations/1", BOB)).status).toBe(404);
    expect(await send("GET", "/api/orgs/acme/invitations", ANN).then((r) => r.json())).toHaveLength(
      1,
    );
  });

  it("answer 503 and revoke the invitation when its mail cannot be handed over", async () => {
    const reported: unknown[] = [];
    const broken: Mailer = {
      send: async () => {
        throw new Error("the provider is down");
      },
    };
    const { send, json, acme } = mounted({
      mailer: broken,
      reportMailError: (error) => reported.push(error),
    });
    await acme();
    const refused = await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "bob@example.com", role: "member" },
    });
    expect(refused.status).toBe(503);
    expect((await json(refused)).error).toMatchObject({
      code: "unavailable",
      message: "The invitation mail could not be sent: try again later.",
    });
    expect(reported).toHaveLength(1);
    expect(await send("GET", "/api/orgs/acme/invitations", ANN).then(json)).toEqual([]);
  });
});

describe("organizationRoutes: accepting an invitation", () => {
  /** Acme, and an invitation of Bob's address as `member`, with its token. */
  async function invited(options: Mounted = {}) {
    const routes = mounted(options);
    await routes.acme();
    const body = { email: "bob@example.com", role: "member" };
    expect((await routes.send("POST", "/api/orgs/acme/invitations", ANN, { body })).status).toBe(
      201,
    );
    return { ...routes, token: tokenOf(routes.mailer, "bob@example.com") };
  }

  it("make the invited user a member with the invited role (200), once: the second is a 404", async () => {
    const { send, json, token } = await invited();
    const accepted = await send("POST", `/api/invitations/${token}/accept`, BOB);
    expect(accepted.status).toBe(200);
    expect(await json(accepted)).toEqual({
      organization: { id: 1, name: "Acme", slug: "acme", created_at: "2026-03-01 09:00:00" },
      role: "member",
    });
    expect(await send("GET", "/api/orgs/acme", BOB).then(json)).toMatchObject({ role: "member" });
    const again = await send("POST", `/api/invitations/${token}/accept`, BOB);
    expect(again.status).toBe(404);
    expect(await json(again)).toEqual({
      error: {
        code: "not_found",
        message: "This invitation cannot be accepted: it was used or revoked, or it has expired.",
        status: 404,
      },
    });
  });

  it("refuse another user's address (403 invitation_email_mismatch), leaving it for the right one", async () => {
    const { send, json, token } = await invited();
    const wrong = await send("POST", `/api/invitations/${token}/accept`, CAT);
    expect(wrong.status).toBe(403);
    expect((await json(wrong)).error).toMatchObject({ code: "invitation_email_mismatch" });
    expect((await send("GET", "/api/orgs/acme", CAT)).status).toBe(404);
    expect((await send("POST", `/api/invitations/${token}/accept`, BOB)).status).toBe(200);
  });

  it("refuse a user whose address is not confirmed (403), even when it is the invited one", async () => {
    const { send, json, mailer } = await invited();
    await send("POST", "/api/orgs/acme/invitations", ANN, {
      body: { email: "dan@example.com", role: "viewer" },
    });
    const token = tokenOf(mailer, "dan@example.com");
    const refused = await send("POST", `/api/invitations/${token}/accept`, DAN);
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toMatchObject({
      code: "invitation_email_mismatch",
      message: "Confirm your email address before you accept an invitation.",
    });
    expect((await send("GET", "/api/orgs/acme", DAN)).status).toBe(404);
    // An unknown token stays a 404 for them: the 403 reveals no invitation that is none.
    expect((await send("POST", `/api/invitations/${"A".repeat(43)}/accept`, DAN)).status).toBe(404);
  });

  it("answer 404 to an unknown or malformed token", async () => {
    const { send } = await invited();
    for (const token of ["A".repeat(43), "short", "A".repeat(44), "%00"]) {
      const refused = await send("POST", `/api/invitations/${token}/accept`, BOB);
      expect([token, refused.status]).toEqual([token, 404]);
    }
  });

  it("answer 404 after the expiry (a frozen clock moved past 7 days)", async () => {
    const { send, setNow, token } = await invited();
    setNow(T0 + INVITATION_LIFETIME_MS);
    expect((await send("POST", `/api/invitations/${token}/accept`, BOB)).status).toBe(404);
    expect((await send("GET", "/api/orgs/acme", BOB)).status).toBe(404);
  });

  it("answer 404 after the expiry on the real clock, with a tiny lifetime", async () => {
    const routes = mounted({ clock: undefined, invitationLifetimeMs: 30 });
    await routes.acme();
    const body = { email: "bob@example.com", role: "member" };
    await routes.send("POST", "/api/orgs/acme/invitations", ANN, { body });
    const token = tokenOf(routes.mailer, "bob@example.com");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await routes.send("POST", `/api/invitations/${token}/accept`, BOB)).status).toBe(404);
  });

  it("let one of two acceptances at once succeed (200) and answer the other 404", async () => {
    const { send, json, token } = await invited();
    const statuses = await Promise.all([
      send("POST", `/api/invitations/${token}/accept`, BOB),
      send("POST", `/api/invitations/${token}/accept`, BOB),
    ]).then((answers) => answers.map((answer) => answer.status));
    expect(statuses.sort()).toEqual([200, 404]);
    const members = (await send("GET", "/api/orgs/acme/members", ANN).then(
      json,
    )) as unknown as unknown[];
    expect(members).toHaveLength(2);
  });

  it("keep a member's role when they accept an invitation to where they are already", async () => {
    const { send, json, token, store } = await invited();
    expect((await send("POST", `/api/invitations/${token}/accept`, BOB)).status).toBe(200);
    expect(
      (await send("PATCH", "/api/orgs/acme/members/2", ANN, { body: { role: "admin" } })).status,
    ).toBe(200);
    // A second invitation, as if written before Bob joined (the route refuses a member's address).
    const second = randomToken();
    await store.createInvitation({
      organizationId: 1,
      email: "bob@example.com",
      role: "viewer",
      invitedBy: ANN,
      tokenDigest: sha256Hex(second),
      expiresAt: T0 + 1000,
      now: T0,
    });
    const accepted = await send("POST", `/api/invitations/${second}/accept`, BOB);
    expect(await json(accepted)).toMatchObject({ role: "admin" });
    expect(await send("GET", "/api/orgs/acme", BOB).then(json)).toMatchObject({ role: "admin" });
  });
});

describe("organizationMember and organizationOwner", () => {
  const signedIn = authenticated(bearerUser);

  it("organizationMember puts the organization and role in the context of any route of an organization", async () => {
    const store = new MemoryOrganizationStore((id) => PEOPLE[id]);
    await store.createOrganization({ name: "Acme", slug: "acme", ownerId: ANN, now: T0 });
    const projects: Route<
      RouteContext & { user: OrganizationUser; organization: Organization; role: string }
    > = {
      method: "GET",
      path: "/api/orgs/:slug/projects",
      handle: async (_request, { organization, role }) =>
        jsonAnswer({ organization: organization.id, role }),
    };
    const handle = routeRequests(
      withMiddleware(
        [projects],
        signedIn,
        organizationMember({ organizations: store }, "records:read"),
      ),
    );
    const get = async (who: number, slug = "acme") =>
      (await handle(
        new Request(`${APP_URL}/api/orgs/${slug}/projects`, {
          headers: { authorization: `Bearer ${who}` },
        }),
        {},
      ))!;
    expect(await (await get(ANN)).json()).toEqual({ organization: 1, role: "owner" });
    expect((await get(BOB)).status).toBe(404);
    expect((await get(ANN, "other")).status).toBe(404);
  });

  it("organizationRecords asks each action of the model's permission, which records:<action> also grants", async () => {
    const roles = defineRoles({ archivist: ["records:read", "projects:delete"] });
    const routes = mounted({ roles });
    await routes.acme({ [BOB]: "viewer", [CAT]: "archivist" });
    const scope = organizationRecords({ organizations: routes.store, roles });
    const deleteOf = (
      table: string,
    ): Route<RouteContext & { ownerId: number; createdBy?: number }> => ({
      method: "DELETE",
      path: `/api/orgs/:slug/${table}/:id`,
      handle: async (_request, { ownerId, createdBy }) => jsonAnswer({ ownerId, createdBy }),
    });
    const handle = routeRequests(
      ["projects", "tasks"].flatMap((table) =>
        withMiddleware(
          [deleteOf(table)],
          signedIn,
          scope.ownerFor("delete", { name: table.slice(0, -1), table }),
        ),
      ),
    );
    const remove = async (who: number, table: string, slug = "acme") => {
      const response = (await handle(
        new Request(`${APP_URL}/api/orgs/${slug}/${table}/1`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${who}` },
        }),
        {},
      ))!;
      return { status: response.status, body: await response.json() };
    };
    const acme = (await routes.store.findMembership("acme", ANN))!.organization;
    expect(await remove(ANN, "projects")).toEqual({
      status: 200,
      body: { ownerId: acme.id, createdBy: ANN },
    });
    expect((await remove(CAT, "projects")).status).toBe(200);
    const refused = await remove(CAT, "tasks");
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "forbidden",
      message: "You need the tasks:delete permission.",
    });
    expect((await remove(BOB, "projects")).body.error.message).toBe(
      "You need the projects:delete permission.",
    );
    expect((await remove(EVE, "projects")).status).toBe(404);
    expect((await remove(ANN, "projects", "nowhere")).status).toBe(404);
    expect(() => scope.ownerFor("read", { name: "member", table: "members" })).toThrow(
      "is a permission area of organizations",
    );
  });

  it("organizationOwner is an owner resolver keyed org:<id>, for members with webhooks:manage", async () => {
    const routes = mounted();
    await routes.acme({ [BOB]: "member", [CAT]: "admin" });
    const owner = organizationOwner({ organizations: routes.store, authenticate: bearerUser });
    const resolve = (who: number | undefined, slug = "acme") =>
      owner(
        new Request(`${APP_URL}/api/orgs/${slug}/webhook_endpoints`, {
          headers: who === undefined ? {} : { authorization: `Bearer ${who}` },
        }),
        { params: { slug }, clientAddress: "127.0.0.1" },
      );
    expect(await resolve(CAT)).toEqual({
      ok: true,
      value: { owner: { id: -1, rateLimitKey: "org:1", signedInEmail: "cat@example.com" } },
    });
    const member = await resolve(BOB);
    expect(member.ok).toBe(false);
    if (!member.ok) {
      expect(member.response.status).toBe(403);
      expect(((await member.response.json()) as { error: { message: string } }).error.message).toBe(
        "You need the webhooks:manage permission.",
      );
    }
    const statuses = [
      await resolve(EVE),
      await resolve(ANN, "other"),
      await resolve(undefined),
    ].map((answer) => (answer.ok ? 200 : answer.response.status));
    expect(statuses).toEqual([404, 404, 401]);
  });

  it("organizationRoutes refuses options it cannot work with, at once", () => {
    const store = new MemoryOrganizationStore((id) => PEOPLE[id]);
    const base = {
      organizations: store,
      authenticate: bearerUser,
      mailer: new MemoryMailer(),
      appUrl: APP_URL,
    };
    expect(() => organizationRoutes({ ...base, appUrl: "app.example" })).toThrow(
      "organizationRoutes: `appUrl` is not an http(s) URL",
    );
    expect(() => organizationRoutes({ ...base, mailer: undefined as unknown as Mailer })).toThrow(
      "organizationRoutes: `mailer` is missing",
    );
  });
});
