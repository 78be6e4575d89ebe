import { SqliteRecordStore } from "@tessera/sqlite";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { htmlRecordRoutes, jsonRecordRoutes, MemoryObjectStorage } from "../src/index.js";
import { ADA, postModel, setUpApp } from "./fixtures.js";

describe("mounting the route tables on Hono, as the README shows", () => {
  it("routes every JSON and HTML path, `/new` before `/:id`", async () => {
    const { database } = await setUpApp();
    const options = {
      model: postModel,
      store: new SqliteRecordStore(database, postModel),
      storage: new MemoryObjectStorage(),
    };
    const flashes: string[] = [];
    const session = {
      flash: (_kind: string, message: string) => flashes.push(message),
      takeFlashes: () => [],
    };
    const app = new Hono();
    for (const route of jsonRecordRoutes(options).routes) {
      app.on(route.method, route.path, (c) => {
        // The app's own authentication goes here: a bearer token resolved to a user id.
        if (c.req.header("authorization") !== "Bearer ada")
          return c.json({ error: "Unauthorized" }, 401);
        return route.handle(c.req.raw, { ownerId: ADA }, c.req.param());
      });
    }
    const layout = ({ mainHtml }: { mainHtml: string }) => mainHtml;
    for (const route of htmlRecordRoutes({ ...options, layout }).routes) {
      app.on(route.method, route.path, (c) =>
        route.handle(
          c.req.raw,
          { ownerId: ADA, signedInEmail: "ada@example.com", session },
          c.req.param(),
        ),
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
    expect([deleted.status, deleted.headers.get("location"), flashes]).toEqual([
      303,
      "/posts",
      ["Post was deleted."],
    ]);
    expect((await app.request("/api/posts/1", { headers: bearer })).status).toBe(404);
  });
});
