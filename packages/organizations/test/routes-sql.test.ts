// The organization routes over the SQL store, two app instances (two connections) on one
// database of each engine: what only a real database shows through them, namely two requests at
// once, and path text that PostgreSQL would refuse as a parameter.
import { type Authenticate, routeRequests, unauthorized } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { SqlOrganizationStore } from "@tessera/organizations/sql";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import { type OrganizationUser, organizationRoutes } from "../src/routes.js";
import { insertUser, postgresSchema, sqliteFile } from "./support/databases.js";

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

const engines = {
  "SQLite (better-sqlite3 file)": async () => {
    const { database, open } = await sqliteFile();
    return { database, open: (): SqlDatabase => open() };
  },
  "PostgreSQL (pg)": async () => {
    const { database, open } = await postgresSchema();
    return { database, open: (): SqlDatabase => open() };
  },
};

/** Ann, Bob and Cat as rows of `users`, and two app instances, each on its own connection. */
async function twoInstances(engine: keyof typeof engines) {
  const { database, open } = await engines[engine]();
  const users = new Map<number, OrganizationUser>();
  for (const email of ["ann@example.com", "bob@example.com", "cat@example.com"]) {
    const id = await insertUser(database, email, null);
    users.set(id, { id, email, confirmedAt: T0 });
  }
  const [ann, bob, cat] = [...users.keys()] as [number, number, number];
  const authenticate: Authenticate<{ readonly user: OrganizationUser }> = async (request) => {
    const user = users.get(Number(request.headers.get("authorization")?.replace(/^Bearer /, "")));
    return user ? { ok: true, value: { user } } : { ok: false, response: unauthorized() };
  };
  const mailer = new MemoryMailer();
  const instance = (connection: SqlDatabase) => {
    const handle = routeRequests(
      organizationRoutes({
        organizations: new SqlOrganizationStore(connection),
        authenticate,
        mailer,
        appUrl: "https://app.example",
        clock: () => T0,
      }),
    );
    return async (method: string, path: string, who: number, body?: unknown) => {
      const init = {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${who}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      };
      const response = await handle(new Request(`https://app.example${path}`, init), {});
      if (!response) throw new Error(`no route for ${method} ${path}`);
      return response;
    };
  };
  const first = instance(open());
  const second = instance(open());
  const created = await first("POST", "/api/orgs", ann, { name: "Acme", slug: "acme" });
  expect(created.status).toBe(201);
  /** Invites `who`'s address as `role` through the first instance; the token from its mail. */
  const invite = async (who: number, role: string) => {
    const email = users.get(who)?.email as string;
    expect((await first("POST", "/api/orgs/acme/invitations", ann, { email, role })).status).toBe(
      201,
    );
    const token = /\/invitations\/([A-Za-z0-9_-]{43})\n/.exec(mailer.last(email)?.text ?? "")?.[1];
    if (!token) throw new Error("no invitation mail");
    return token;
  };
  return { first, second, invite, ann, bob, cat };
}

for (const engine of Object.keys(engines) as (keyof typeof engines)[]) {
  describe(`organizationRoutes on ${engine}`, () => {
    it("let one of two acceptances at once, on two instances, succeed (200) and answer the other 404", async () => {
      const { first, second, invite, ann, bob } = await twoInstances(engine);
      const token = await invite(bob, "member");
      const path = `/api/invitations/${token}/accept`;
      const answers = await Promise.all([first("POST", path, bob), second("POST", path, bob)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
      const members = (await first("GET", "/api/orgs/acme/members", ann).then((r) =>
        r.json(),
      )) as Array<{ user_id: number; role: string }>;
      expect(members.map(({ user_id, role }) => [user_id, role])).toEqual([
        [ann, "owner"],
        [bob, "member"],
      ]);
    });

    it("let only one of two owners demoting each other at once go through: the other is a 409", async () => {
      const { first, second, invite, ann, bob } = await twoInstances(engine);
      const token = await invite(bob, "owner");
      expect((await second("POST", `/api/invitations/${token}/accept`, bob)).status).toBe(200);
      const answers = await Promise.all([
        first("PATCH", `/api/orgs/acme/members/${bob}`, ann, { role: "admin" }),
        second("PATCH", `/api/orgs/acme/members/${ann}`, bob, { role: "admin" }),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toContain(200);
      // The loser is refused either way: its demotion would leave no owner (409), or it was
      // demoted first and an admin may not touch an owner (403), as its membership was read.
      const refused = answers.find((answer) => answer.status !== 200) as Response;
      const { error } = (await refused.json()) as { error: { code: string } };
      expect([refused.status, error.code]).toEqual(
        refused.status === 409 ? [409, "last_owner"] : [403, "role_not_grantable"],
      );
      const members = (await first("GET", "/api/orgs/acme/members", ann).then((r) =>
        r.json(),
      )) as Array<{ role: string }>;
      expect(members.filter((member) => member.role === "owner")).toHaveLength(1);
    });

    it("take a removed member's access away at once, on the other instance too", async () => {
      const { first, second, invite, ann, cat } = await twoInstances(engine);
      const token = await invite(cat, "viewer");
      expect((await first("POST", `/api/invitations/${token}/accept`, cat)).status).toBe(200);
      expect((await second("GET", "/api/orgs/acme", cat)).status).toBe(200);
      expect((await first("DELETE", `/api/orgs/acme/members/${cat}`, ann)).status).toBe(204);
      expect((await second("GET", "/api/orgs/acme", cat)).status).toBe(404);
      expect((await second("GET", "/api/orgs/acme/members", cat)).status).toBe(404);
    });

    it("answer 404, never a 500, to a slug or token a database cannot take as text", async () => {
      const { first, ann } = await twoInstances(engine);
      for (const path of ["/api/orgs/%00", "/api/orgs/ac%00me/members"]) {
        expect([path, (await first("GET", path, ann)).status]).toEqual([path, 404]);
      }
      expect((await first("POST", "/api/invitations/%00/accept", ann)).status).toBe(404);
    });
  });
}
