import { unauthorized } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { createSessionCookies } from "@tessera/session";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { htmlRecordRoutes } from "../src/html.js";
import { jsonRecordRoutes, MemoryObjectStorage } from "../src/index.js";
import { ADA, postModel, setUpApp } from "./fixtures.js";

describe("mounting the routes on Hono, as the README shows", () => {
  it("routes every JSON and HTML path, `/new` before `/:id`, with no middleware", async () => {
    const { database } = await setUpApp();
    const options = {
      model: postModel,
      store: new SqlRecordStore(database, postModel),
      storage: new MemoryObjectStorage(),
    };
    const ada = { id: ADA, email: "ada@example.com" };
    const sessions = createSessionCookies({
      appName: "tessera",
      secrets: { current: "a test secret key base that is long enough to use" },
    });
    const app = new Hono();
    const routes = [
      ...jsonRecordRoutes({
        ...options,
        // A bearer token resolved to its user, as `bearerAuthentication` would.
        authenticate: async (request) =>
          request.headers.get("authorization") === "Bearer ada"
            ? { ok: true, value: { user: ada } }
            : { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) },
      }),
      ...htmlRecordRoutes({
        ...options,
        layout: ({ mainHtml }) => mainHtml,
        sessions,
        authenticate: async () => ({ ok: true, value: { user: ada } }),
      }),
    ];
    // Registered in the order given: the package lists `/new` before `/:id`.
    for (const route of routes) {
      app.on(route.method, route.path, (c) =>
        route.handle(c.req.raw, { params: c.req.param(), clientAddress: "unknown" }),
      );
    }
    const bearer = { authorization: "Bearer ada", "content-type": "application/json" };

    expect((await app.request("/api/posts")).status).toBe(401);
    const created = await app.request("/api/posts", {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ title: "Via Hono", status: "draft" }),
    });
    expect(created.status).toBe(201);
    const patched = await app.request("/api/posts/1", {
      method: "PATCH",
      headers: bearer,
      body: '{"views":3}',
    });
    expect(await patched.json()).toMatchObject({ id: 1, views: 3 });
    const upload = new FormData();
    upload.append("file", new File(["x"], "x.png", { type: "image/png" }));
    const added = await app.request("/api/posts/1/photos", {
      method: "POST",
      headers: { authorization: "Bearer ada" },
      body: upload,
    });
    expect(added.status).toBe(201);
    const file = await app.request("/api/posts/1/photos/1", { headers: bearer });
    expect(await file.text()).toBe("x");

    expect(await (await app.request("/posts/new")).text()).toContain("<h1>New post</h1>");
    expect(await (await app.request("/posts/1")).text()).toContain("Via Hono");
    expect(await (await app.request("/posts/1/edit")).text()).toContain("<h1>Edit post</h1>");
    const deleted = await app.request("/posts/1/delete", { method: "POST" });
    expect([deleted.status, deleted.headers.get("location")]).toEqual([303, "/posts"]);
    // The flash travels in the session cookie the route committed itself.
    const cookie = deleted.headers.getSetCookie()[0]!.split(";")[0]!;
    const next = await sessions.read(new Request("http://app.test/posts", { headers: { cookie } }));
    expect(next.takeFlashes()).toEqual([{ kind: "notice", message: "Post was deleted." }]);
    expect((await app.request("/api/posts/1", { headers: bearer })).status).toBe(404);
  });
});
