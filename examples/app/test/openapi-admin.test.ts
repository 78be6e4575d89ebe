// The operators' routes, the user's own activity and the render job's routes over real HTTP,
// every request and answer checked against the document the app serves (documentedApi): the
// success answers and the refusals the document lists, each with its exact code.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { Browser, linkIn } from "./support/browser.js";
import { type DocumentedApi, documentedApi } from "./support/documented-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
const PASSWORD = "correct horse battery";
const OPERATOR = `openapi-ops-${Date.now()}@example.com`;
let server: TestServer;
let service: RecordingService;
let operatorToken: string;

beforeAll(async () => {
  service = await startRecordingService({ status: 202, body: '{"id":"ext-1"}' });
  server = await startTestServer(
    {
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      ADMIN_EMAILS: OPERATOR,
      RENDER_URL: service.url,
      RENDER_SECRET: "render-shared-secret",
    },
    { mailer },
  );
  await signUpConfirmed(OPERATOR);
  operatorToken = await tokenOf(await api(), OPERATOR);
});
afterAll(async () => {
  await server.stop();
  await service.close();
});

/** A documented caller from an address of its own, so no rate limit of another test counts. */
const api = () => documentedApi(server.url, { headers: { "x-forwarded-for": newClientAddress() } });

let counter = 0;
const uniqueEmail = (prefix = "member") => `${prefix}${++counter}.${Date.now()}@example.com`;

async function signUp(caller: DocumentedApi, email = uniqueEmail()) {
  const created = await caller.call("POST", "/api/auth/signup", {
    body: { email, password: PASSWORD },
  });
  expect(created.status).toBe(201);
  return { email, id: created.body.id as number };
}

async function tokenOf(caller: DocumentedApi, email: string): Promise<string> {
  const answer = await caller.call("POST", "/api/auth/token", {
    body: { email, password: PASSWORD },
  });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

/** Signs up on the page, which mails the confirmation link, and follows the link. */
async function signUpConfirmed(email: string) {
  const browser = new Browser(server.url);
  expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  await server.deliverMail();
  const mail = mailer.sent.filter((sent) => sent.to === email).at(-1)!;
  expect((await browser.post(linkIn(mail.text, "/confirmations").path)).status).toBe(303);
}

const notFound = { code: "not_found", message: "Not found", status: 404 };

describe("/api/admin as documented", () => {
  it("answers the documented 404 to everyone but an operator with a token", async () => {
    const caller = await api();
    const member = await signUp(caller);
    const memberToken = await tokenOf(caller, member.email);
    const key = await caller.call("POST", "/api/auth/keys", {
      token: operatorToken,
      body: { name: "ops" },
    });
    expect(key.status).toBe(201);
    const routes = [
      ["GET", "/api/admin/users"],
      ["GET", `/api/admin/users/${member.id}`],
      ["POST", `/api/admin/users/${member.id}/ban`],
      ["POST", `/api/admin/users/${member.id}/unban`],
      ["POST", `/api/admin/users/${member.id}/sessions/revoke`],
      ["POST", `/api/admin/users/${member.id}/impersonate`],
      ["GET", "/api/admin/audit"],
    ] as const;
    for (const [method, path] of routes) {
      for (const token of [undefined, "not-a-token", memberToken, key.body.key as string]) {
        const body = path.endsWith("/ban") ? { reason: "x" } : undefined;
        const answer = await caller.call(method, path, { token, body });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.error).toEqual(notFound);
      }
    }
    // Stopping takes a token acting for a user: the operator's own is not one.
    for (const token of [undefined, operatorToken, memberToken]) {
      expect((await caller.call("POST", "/api/admin/impersonation/stop", { token })).status).toBe(
        404,
      );
    }
    expect(caller.problems).toEqual([]);
  });

  it("finds users page by page and shows one with its facts", async () => {
    const caller = await api();
    const stamp = `needle${Date.now()}`;
    const found = [];
    for (let index = 0; index < 3; index += 1) {
      found.push(await signUp(caller, `${stamp}.${index}@example.com`));
    }
    await tokenOf(caller, found[0]!.email);
    const first = await caller.call("GET", `/api/admin/users?query=${stamp}&limit=2`, {
      token: operatorToken,
    });
    expect(first.status).toBe(200);
    expect(first.body.map((user: { id: number }) => user.id)).toEqual([found[2]!.id, found[1]!.id]);
    expect(first.headers.get("link")).toBe(
      `</api/admin/users?limit=2&after=${found[1]!.id}&query=${stamp}>; rel="next"`,
    );
    const next = await caller.call(
      "GET",
      `/api/admin/users?limit=2&after=${found[1]!.id}&query=${stamp}`,
      { token: operatorToken },
    );
    expect(next.body.map((user: { id: number }) => user.id)).toEqual([found[0]!.id]);
    const everyone = await caller.call("GET", "/api/admin/users", { token: operatorToken });
    expect(everyone.body.length).toBeGreaterThanOrEqual(4);

    const shown = await caller.call("GET", `/api/admin/users/${found[0]!.id}`, {
      token: operatorToken,
    });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ admin: false, api_keys: 0, role: "user", ban: null });
    expect(shown.body.last_sign_in).toMatchObject({
      type: "user.signed_in",
      user_id: found[0]!.id,
    });
    const operator = await caller.call("GET", "/api/admin/users?query=openapi-ops", {
      token: operatorToken,
    });
    const operatorId = operator.body[0].id as number;
    const self = await caller.call("GET", `/api/admin/users/${operatorId}`, {
      token: operatorToken,
    });
    expect(self.body).toMatchObject({ admin: true, email: OPERATOR });
    expect(self.body.confirmed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    for (const path of ["/api/admin/users/999999999", "/api/admin/users/abc"]) {
      const missing = await caller.call("GET", path, { token: operatorToken });
      expect(missing.status, path).toBe(404);
      expect(missing.body.error).toEqual(notFound);
    }
    for (const query of [
      "limit=0",
      "offset=1&after=2",
      "after=-1",
      "query=%00",
      `query=${"q".repeat(255)}`,
    ]) {
      const refused = await caller.call("GET", `/api/admin/users?${query}`, {
        token: operatorToken,
      });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
    }
    expect(caller.problems).toEqual([]);
  });

  it("bans and unbans a user, and refuses as documented", async () => {
    const caller = await api();
    const target = await signUp(caller);
    const operatorId = (await caller.call("GET", "/api/auth/me", { token: operatorToken })).body
      .id as number;
    const ban = (id: number, body: unknown, invalidBody = false) =>
      caller.call("POST", `/api/admin/users/${id}/ban`, {
        token: operatorToken,
        body,
        invalidBody,
      });

    const until = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19).replace("T", " ");
    const banned = await ban(target.id, { reason: "  spam  ", until });
    expect(banned.status).toBe(200);
    expect(banned.body.ban).toMatchObject({ reason: "spam", until, active: true });
    const forever = await ban(target.id, { reason: "again", until: null });
    expect(forever.body.ban).toMatchObject({ reason: "again", until: null, active: true });

    for (const body of [{ reason: 3 }, {}, { reason: "x", until: 5 }, "not an object"]) {
      const refused = await ban(target.id, body, true);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
    }
    const invalid = await ban(target.id, { reason: "   ", until: "2020-01-01 00:00:00" }, true);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.fields).toEqual({
      reason: ["can't be blank"],
      until: ["must be a time in the future"],
    });
    const badEnd = await ban(target.id, { reason: "x", until: "tomorrow" }, true);
    expect(badEnd.body.error.fields).toEqual({ until: ["is invalid"] });
    const long = await ban(target.id, { reason: "r".repeat(501) });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.error.fields)).toEqual(["reason"]);
    const operator = await ban(operatorId, { reason: "oops" });
    expect(operator.status).toBe(409);
    expect(operator.body.error.code).toBe("admin_not_bannable");
    expect((await ban(999_999_999, { reason: "x" })).body.error).toEqual(notFound);

    const lifted = await caller.call("POST", `/api/admin/users/${target.id}/unban`, {
      token: operatorToken,
    });
    expect(lifted.status).toBe(200);
    expect(lifted.body.ban).toBeNull();
    const missing = await caller.call("POST", "/api/admin/users/999999999/unban", {
      token: operatorToken,
    });
    expect(missing.status).toBe(404);
    expect(caller.problems).toEqual([]);
  });

  it("ends a user's sign-ins", async () => {
    const caller = await api();
    const target = await signUp(caller);
    const revoked = await caller.call("POST", `/api/admin/users/${target.id}/sessions/revoke`, {
      token: operatorToken,
    });
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeUndefined();
    const missing = await caller.call("POST", "/api/admin/users/999999999/sessions/revoke", {
      token: operatorToken,
    });
    expect(missing.body.error).toEqual(notFound);
    expect(caller.problems).toEqual([]);
  });

  it("impersonates a user with a token of an hour at most, until stopped", async () => {
    const caller = await api();
    const target = await signUp(caller);
    const operatorId = (await caller.call("GET", "/api/auth/me", { token: operatorToken })).body
      .id as number;
    const started = await caller.call("POST", `/api/admin/users/${target.id}/impersonate`, {
      token: operatorToken,
    });
    expect(started.status).toBe(200);
    expect(started.body.token_type).toBe("Bearer");
    expect(started.body.expires_in).toBeLessThanOrEqual(3600);
    expect(started.headers.get("cache-control")).toBe("no-store");
    const token = started.body.token as string;
    expect((await caller.call("GET", "/api/auth/me", { token })).body.email).toBe(target.email);

    const stopped = await caller.call("POST", "/api/admin/impersonation/stop", { token });
    expect(stopped.status).toBe(204);
    const again = await caller.call("POST", "/api/admin/impersonation/stop", { token });
    expect(again.body.error).toEqual(notFound);

    const refused = await caller.call("POST", `/api/admin/users/${operatorId}/impersonate`, {
      token: operatorToken,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("not_impersonable");
    const banned = await signUp(caller);
    await caller.call("POST", `/api/admin/users/${banned.id}/ban`, {
      token: operatorToken,
      body: { reason: "spam" },
    });
    const bannedRefusal = await caller.call("POST", `/api/admin/users/${banned.id}/impersonate`, {
      token: operatorToken,
    });
    expect(bannedRefusal.body.error.code).toBe("not_impersonable");
    const missing = await caller.call("POST", "/api/admin/users/999999999/impersonate", {
      token: operatorToken,
    });
    expect(missing.status).toBe(404);
    expect(caller.problems).toEqual([]);
  });

  it("lists the audit trail with its filters, and refuses bad ones", async () => {
    const caller = await api();
    const target = await signUp(caller);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const wrong = await caller.call("POST", "/api/auth/token", {
        body: { email: target.email, password: "wrong password" },
      });
      expect(wrong.status).toBe(401);
    }
    const page = await caller.call(
      "GET",
      `/api/admin/audit?user_id=${target.id}&type=user.sign_in_failed&limit=2`,
      { token: operatorToken },
    );
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    expect(page.body[0]).toMatchObject({ type: "user.sign_in_failed", user_id: target.id });
    expect(page.headers.get("link")).toBe(
      `</api/admin/audit?limit=2&after=${page.body[1].id}&user_id=${target.id}&type=user.sign_in_failed>; rel="next"`,
    );
    const all = await caller.call("GET", "/api/admin/audit", { token: operatorToken });
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(2);
    for (const query of ["user_id=abc", "user_id=0", "type=%00", "type=User", "limit=101"]) {
      const refused = await caller.call("GET", `/api/admin/audit?${query}`, {
        token: operatorToken,
      });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
    }
    expect(caller.problems).toEqual([]);
  });
});

describe("GET /api/auth/activity as documented", () => {
  it("pages through the bearer's own events, with a token or an API key", async () => {
    const caller = await api();
    const user = await signUp(caller);
    const token = await tokenOf(caller, user.email);
    const key = await caller.call("POST", "/api/auth/keys", { token, body: { name: "ci" } });
    expect(key.status).toBe(201);
    const first = await caller.call("GET", "/api/auth/activity?limit=1", { token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0]).toMatchObject({ type: "user.api_key_created", user_id: user.id });
    expect(first.headers.get("link")).toBe(
      `</api/auth/activity?limit=1&after=${first.body[0].id}>; rel="next"`,
    );
    const rest = await caller.call("GET", `/api/auth/activity?after=${first.body[0].id}`, {
      token: key.body.key,
    });
    expect(rest.body.map((event: { type: string }) => event.type)).toEqual([
      "user.signed_in",
      "user.signed_up",
    ]);
    for (const query of ["limit=0", "offset=x", "offset=1&after=1"]) {
      const refused = await caller.call("GET", `/api/auth/activity?${query}`, { token });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
    }
    for (const credentials of [undefined, "not-a-token"]) {
      const refused = await caller.call("GET", "/api/auth/activity", { token: credentials });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    }
    expect(caller.problems).toEqual([]);
  });
});

describe("render jobs as documented", () => {
  it("starts, lists and shows the user's jobs, and refuses as documented", async () => {
    const caller = await api();
    const token = await tokenOf(caller, (await signUp(caller)).email);
    const other = await tokenOf(caller, (await signUp(caller)).email);
    const started = await caller.call("POST", "/api/render_jobs", {
      token,
      body: { prompt: "a red fox", width: 640 },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ prompt: "a red fox", width: 640, status: "submitted" });
    const second = await caller.call("POST", "/api/render_jobs", {
      token,
      body: { prompt: "a blue fox" },
    });
    expect(second.body).toMatchObject({ width: null, external_id: "ext-1", progress: 0 });

    const page = await caller.call("GET", "/api/render_jobs?limit=1", { token });
    expect(page.status).toBe(200);
    expect(page.body.map((job: { id: number }) => job.id)).toEqual([second.body.id]);
    expect(page.headers.get("link")).toBe(
      `</api/render_jobs?limit=1&after=${second.body.id}>; rel="next"`,
    );
    const shown = await caller.call("GET", `/api/render_jobs/${started.body.id}`, { token });
    expect(shown.body).toEqual(started.body);

    const foreign = await caller.call("GET", `/api/render_jobs/${started.body.id}`, {
      token: other,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual(notFound);
    expect((await caller.call("GET", "/api/render_jobs/abc", { token })).status).toBe(404);
    for (const body of [{ width: 3 }, { prompt: 3 }, ["a list"], { prompt: "x", width: 1.5 }]) {
      const refused = await caller.call("POST", "/api/render_jobs", {
        token,
        body,
        invalidBody: true,
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
    }
    const blank = await caller.call("POST", "/api/render_jobs", {
      token,
      body: { prompt: "   " },
      invalidBody: true,
    });
    expect(blank.status).toBe(422);
    expect(blank.body.error.fields).toEqual({ prompt: ["can't be blank"] });
    const refusedPage = await caller.call("GET", "/api/render_jobs?limit=101", { token });
    expect(refusedPage.status).toBe(400);
    for (const [method, path] of [
      ["POST", "/api/render_jobs"],
      ["GET", "/api/render_jobs"],
      ["GET", `/api/render_jobs/${started.body.id}`],
    ] as const) {
      const body = method === "POST" ? { prompt: "x" } : undefined;
      const refused = await caller.call(method, path, { body });
      expect(refused.status, `${method} ${path}`).toBe(401);
    }
    expect(caller.problems).toEqual([]);
  });
});
