// GET /api/openapi.json over real HTTP: a valid OpenAPI 3.1 document (@readme/openapi-parser),
// the client types openapi-typescript generates from it (committed in fixtures/app-api.d.ts,
// so `npm run typecheck` checks the calls below against them; this suite fails when they are
// stale: `npx vitest run examples/app/test/openapi.test.ts -u` writes them anew), an
// openapi-fetch client driving the posts API, and every answer checked against the document.
import { validate } from "@readme/openapi-parser";
import { MemoryMailer } from "@tessera/mail";
import createClient, { type Middleware } from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiChecker } from "../../../test/support/openapi-responses.js";
import { appApiDocument } from "../src/openapi.js";
import type { paths } from "./fixtures/app-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let token: string;
let served: Record<string, unknown>;
const client = newClientAddress();

beforeAll(async () => {
  // A mailer and APP_URL (the passkeys' origin), so that every JSON route is mounted.
  server = await startTestServer(
    { TRUST_PROXY: "1", APP_URL: "https://app.example" },
    { mailer: new MemoryMailer() },
  );
  token = await signUp();
  const response = await fetch(`${server.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  served = (await response.json()) as Record<string, unknown>;
});
afterAll(() => server.stop());

async function signUp(): Promise<string> {
  const credentials = {
    email: `openapi.${client}.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  for (const path of ["/api/auth/signup", "/api/auth/token"]) {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": client },
      body: JSON.stringify(credentials),
    });
    expect(response.status).toBe(path.endsWith("signup") ? 201 : 200);
    if (path.endsWith("token")) return ((await response.json()) as { token: string }).token;
  }
  throw new Error("unreachable");
}

/** A client of the generated types, checking every answer against the served document. */
function recordClient(credentials: string | undefined, problems: string[]) {
  const checker = openApiChecker(served);
  const check: Middleware = {
    async onResponse({ request, response }) {
      const path = new URL(request.url).pathname;
      const text = await response.clone().text();
      const body = text === "" ? undefined : JSON.parse(text);
      problems.push(...checker.responseProblems(request.method, path, response.status, body));
      return undefined; // the answer goes on unchanged
    },
  };
  const api = createClient<paths>({
    baseUrl: server.url,
    headers: credentials ? { authorization: `Bearer ${credentials}` } : {},
  });
  api.use(check);
  return api;
}

describe("GET /api/openapi.json", () => {
  it("serves the document the app builds, without credentials", () => {
    // The server mounts every JSON route the document can describe (a mailer, outbound on).
    expect(served).toEqual(JSON.parse(JSON.stringify(appApiDocument())));
    expect(Object.keys(served.paths as object)).toContain("/api/posts/{id}");
  });

  it("is a valid OpenAPI 3.1 document, without warnings", async () => {
    const result = await validate(structuredClone(served) as never);
    expect(result).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
  });

  it("gives the client types committed in fixtures/app-api.d.ts", async () => {
    const generated = astToString(await openapiTS(structuredClone(served) as never));
    await expect(generated).toMatchFileSnapshot("./fixtures/app-api.d.ts");
  });
});

describe("an openapi-fetch client of the generated types drives the posts API", () => {
  const problems: string[] = [];
  let api: ReturnType<typeof recordClient>;
  beforeAll(() => {
    api = recordClient(token, problems);
  });

  it("creates, reads, updates, lists and deletes a post; refuses a blank title and a stale version", async () => {
    const created = await api.POST("/api/posts", {
      body: {
        title: "Typed",
        status: "review",
        published: true,
        views: 3,
        publish_on: "2024-02-29",
        starts_at: "2024-02-29 13:05",
        reminder_at: "07:30",
        price: "10.50",
        external_ref: "0F8FAD5B-D9CB-469F-A165-70867728950E",
        metadata: { tags: ["a"] },
      },
    });
    expect(created.response.status).toBe(201);
    const post = created.data!;
    expect(post).toMatchObject({ title: "Typed", status: "review", views: 3, lock_version: 0 });
    expect(post.cover_key).toBeNull();

    const read = await api.GET("/api/posts/{id}", { params: { path: { id: post.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(post);

    const updated = await api.PATCH("/api/posts/{id}", {
      params: { path: { id: post.id } },
      body: { title: "Changed", views: null, lock_version: 0 },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ title: "Changed", views: null, lock_version: 1 });

    const stale = await api.PATCH("/api/posts/{id}", {
      params: { path: { id: post.id } },
      body: { title: "Lost", lock_version: 0 },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error).toEqual({
      error: {
        code: "stale_record",
        message: "This record was changed by someone else: reload it and try again",
        status: 409,
      },
    });

    const blank = await api.POST("/api/posts", { body: { title: "  ", status: "draft" } });
    expect(blank.response.status).toBe(422);
    expect(blank.error).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: { title: ["can't be blank"] },
      },
    });

    const second = await api.POST("/api/posts", { body: { title: "Second", status: "draft" } });
    expect(second.response.status).toBe(201);
    const page = await api.GET("/api/posts", { params: { query: { limit: 1 } } });
    expect(page.response.status).toBe(200);
    expect(page.data?.map((each) => each.title)).toEqual(["Second"]);
    expect(page.response.headers.get("link")).toBe(
      `</api/posts?limit=1&after=${second.data!.id}>; rel="next"`,
    );

    const deleted = await api.DELETE("/api/posts/{id}", { params: { path: { id: post.id } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET("/api/posts/{id}", { params: { path: { id: post.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: { code: "not_found", message: "Not found", status: 404 } });

    expect(problems).toEqual([]);
  });

  it("deletes every photo of a post at once, and gets the documented 404 for a missing post", async () => {
    const post = await api.POST("/api/posts", { body: { title: "Photos", status: "draft" } });
    const id = post.data!.id;
    for (const name of ["a.txt", "b.txt"]) {
      const added = await api.POST("/api/posts/{id}/photos", {
        params: { path: { id } },
        body: { file: name },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append("file", new Blob([body.file], { type: "text/plain" }), name);
          return form;
        },
      });
      expect(added.response.status).toBe(201);
    }
    const listed = await api.GET("/api/posts/{id}/photos", { params: { path: { id } } });
    expect(listed.data).toHaveLength(2);

    const deleted = await api.DELETE("/api/posts/{id}/photos", { params: { path: { id } } });
    expect(deleted.response.status).toBe(204);
    const after = await api.GET("/api/posts/{id}/photos", { params: { path: { id } } });
    expect(after.data).toEqual([]);
    const missing = await api.DELETE("/api/posts/{id}/photos", {
      params: { path: { id: 999_999_999 } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
    expect(problems).toEqual([]);
  });

  it("without credentials gets the documented 401", async () => {
    const anonymous = recordClient(undefined, problems);
    const refused = await anonymous.GET("/api/posts", {});
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get("www-authenticate")).toBe("Bearer");
    expect(refused.error).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
    expect(problems).toEqual([]);
  });
});

describe("every record the app returns validates against the document", () => {
  it("for each model, created and listed", async () => {
    const problems: string[] = [];
    const api = recordClient(token, problems);
    const post = await api.POST("/api/posts", { body: { title: "Parent", status: "draft" } });
    const comment = await api.POST("/api/comments", {
      body: { post_id: post.data!.id, body: "Nice" },
    });
    const label = await api.POST("/api/labels", { body: { name: `l-${client}`, color: null } });
    const reaction = await api.POST("/api/reactions", {
      body: { target_type: "comment", target_id: comment.data!.id, kind: "love" },
    });
    const note = await api.POST("/api/notes", {
      body: { title: "Note", tags: ["x", 1], word_count: "12", post_id: post.data!.id },
    });
    expect(
      [post, comment, label, reaction, note].map((created) => created.response.status),
    ).toEqual([201, 201, 201, 201, 201]);
    const shown = await api.GET("/api/labels/{id}", {
      params: { path: { id: label.data!.public_id } },
    });
    expect(shown.data).toEqual(label.data);

    for (const path of [
      "/api/posts",
      "/api/comments",
      "/api/labels",
      "/api/reactions",
      "/api/notes",
    ] as const) {
      const listed = await api.GET(path, {});
      expect({ path, status: listed.response.status }).toEqual({ path, status: 200 });
      expect(listed.data?.length).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });
});

describe("an organization's webhook endpoints in the document", () => {
  it("are listed under /api/orgs/{slug} with the slug, their 403 and 404, and ids of their own", async () => {
    const paths = served.paths as Record<string, Record<string, { operationId?: string }>>;
    const list = paths["/api/orgs/{slug}/webhook_endpoints"] as unknown as {
      parameters: { name: string; in: string }[];
      get: { operationId: string; responses: Record<string, unknown> };
    };
    expect(list.parameters.map((each) => [each.name, each.in])).toEqual([["slug", "path"]]);
    expect(list.get.operationId).toBe("organizationListWebhookEndpoints");
    expect(Object.keys(list.get.responses)).toEqual(["200", "401", "403", "404"]);
    // The organization routes' own 403: a role without the route's permission, named.
    expect(list.get.responses["403"]).toEqual({
      $ref: "#/components/responses/OrganizationForbidden",
    });
    const organizationPaths = Object.keys(paths).filter((path) =>
      /^\/api\/orgs\/\{slug\}\/webhook_/.test(path),
    );
    expect(organizationPaths.sort()).toEqual([
      "/api/orgs/{slug}/webhook_endpoints",
      "/api/orgs/{slug}/webhook_endpoints/{id}",
      "/api/orgs/{slug}/webhook_endpoints/{id}/attempts",
      "/api/orgs/{slug}/webhook_endpoints/{id}/rotate_secret",
      "/api/orgs/{slug}/webhook_endpoints/{id}/test",
      "/api/orgs/{slug}/webhook_messages/{id}/replay",
    ]);
    // The user's routes keep theirs.
    expect(paths["/api/webhook_endpoints"]?.get?.operationId).toBe("listWebhookEndpoints");
  });

  it("answer as the document says: the list, and a non-member's 404", async () => {
    const problems: string[] = [];
    const api = recordClient(token, problems);
    const created = await api.POST("/api/orgs", { body: { name: `Hooks ${client}` } });
    expect(created.response.status).toBe(201);
    const slug = created.data!.slug;
    const listed = await api.GET("/api/orgs/{slug}/webhook_endpoints", {
      params: { path: { slug } },
    });
    expect(listed.response.status).toBe(200);
    expect(listed.data).toEqual([]);
    const missing = await api.GET("/api/orgs/{slug}/webhook_endpoints/{id}", {
      params: { path: { slug: "no-such-org", id: "ep_none" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
    expect(
      (await api.DELETE("/api/orgs/{slug}", { params: { path: { slug } } })).response.status,
    ).toBe(204);
    expect(problems).toEqual([]);
  });
});

describe("the organization routes answer as the document says", () => {
  it("creates, reads, changes and deletes an organization; lists members; invites and revokes; refuses as documented", async () => {
    const problems: string[] = [];
    const api = recordClient(token, problems);
    const created = await api.POST("/api/orgs", { body: { name: `Docs ${client}` } });
    expect(created.response.status).toBe(201);
    const slug = created.data!.slug;
    const path = { slug };
    expect((await api.GET("/api/orgs", {})).data?.map((each) => each.slug)).toContain(slug);
    expect((await api.GET("/api/orgs/{slug}", { params: { path } })).data?.role).toBe("owner");
    const renamed = await api.PATCH("/api/orgs/{slug}", {
      params: { path },
      body: { name: "Docs renamed" },
    });
    expect(renamed.data?.name).toBe("Docs renamed");
    expect((await api.POST("/api/orgs", { body: { name: " " } })).response.status).toBe(422);

    const members = await api.GET("/api/orgs/{slug}/members", { params: { path } });
    const ownerId = members.data![0]!.user_id;
    const demote = await api.PATCH("/api/orgs/{slug}/members/{user_id}", {
      params: { path: { slug, user_id: ownerId } },
      body: { role: "viewer" },
    });
    expect(demote.response.status).toBe(409);
    const invited = await api.POST("/api/orgs/{slug}/invitations", {
      params: { path },
      body: { email: `invitee.${client}@example.com`, role: "member" },
    });
    expect(invited.response.status).toBe(201);
    const pending = await api.GET("/api/orgs/{slug}/invitations", { params: { path } });
    expect(pending.data?.map((each) => each.id)).toEqual([invited.data!.id]);
    const revoked = await api.DELETE("/api/orgs/{slug}/invitations/{id}", {
      params: { path: { slug, id: invited.data!.id } },
    });
    expect(revoked.response.status).toBe(204);
    const accepted = await api.POST("/api/invitations/{token}/accept", {
      params: { path: { token: "a".repeat(43) } },
    });
    expect(accepted.response.status).toBe(404);
    const missing = await api.GET("/api/orgs/{slug}", {
      params: { path: { slug: "no-such-org" } },
    });
    expect(missing.response.status).toBe(404);
    const deleted = await api.DELETE("/api/orgs/{slug}", { params: { path } });
    expect(deleted.response.status).toBe(204);
    expect(problems).toEqual([]);
  });
});
