import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { StaticPathRouter } from "../src/index.js";

/** The same routes on any router: middleware for all and for /api, statics beside parameters. */
function addRoutes(router: { add(method: string, path: string, handler: string): void }) {
  router.add("ALL", "*", "every request");
  router.add("ALL", "/api/*", "api middleware");
  router.add("GET", "/api/health", "health");
  router.add("GET", "/posts/new", "new post form");
  router.add("GET", "/posts/:id", "a post");
  router.add("POST", "/posts/:id/edit", "edit a post");
  router.add("GET", "/posts", "posts");
  router.add("POST", "/posts", "create a post");
  router.add("GET", "/files/*", "a file");
}

const PATHS = [
  "/api/health",
  "/posts/new",
  "/posts/7",
  "/posts",
  "/posts/7/edit",
  "/files/a/b",
  "/",
  "/nope",
];
const METHODS = ["GET", "POST", "PATCH", "PURGE"];

describe("StaticPathRouter", () => {
  it("matches every path as Hono's trie router does, the first time and again", () => {
    const trie = new TrieRouter<string>();
    const router = new StaticPathRouter<string>();
    addRoutes(trie);
    addRoutes(router);
    for (let round = 0; round < 2; round++) {
      for (const method of METHODS) {
        for (const path of PATHS) {
          expect(router.match(method, path), `${method} ${path}`).toEqual(trie.match(method, path));
        }
      }
    }
  });

  it("remembers the match of a static route's path, and of nothing else", () => {
    const router = new StaticPathRouter<string>();
    addRoutes(router);
    expect(router.match("GET", "/api/health")).toBe(router.match("GET", "/api/health"));
    expect(router.match("GET", "/posts/new")).toBe(router.match("GET", "/posts/new"));
    // A parameter's path, a path no route has, and a method of the client's own making are
    // matched afresh each time: a client cannot fill the memory with them.
    expect(router.match("GET", "/posts/7")).not.toBe(router.match("GET", "/posts/7"));
    expect(router.match("GET", "/nope")).not.toBe(router.match("GET", "/nope"));
    expect(router.match("PURGE", "/posts")).not.toBe(router.match("PURGE", "/posts"));
  });

  it("forgets what it remembered when a route is added", () => {
    const router = new StaticPathRouter<string>();
    addRoutes(router);
    const before = router.match("GET", "/api/health");
    router.add("GET", "/api/*", "added later");
    const after = router.match("GET", "/api/health");
    expect(after).not.toBe(before);
    expect(after[0].map(([handler]) => handler)).toEqual([
      "every request",
      "api middleware",
      "health",
      "added later",
    ]);
  });

  it("serves a Hono app: middleware in order, static paths, parameters beside them", async () => {
    const app = new Hono({ router: new StaticPathRouter() });
    app.use(async (context, next) => {
      await next();
      context.res.headers.set("x-seen", "yes");
    });
    app.get("/posts/new", (context) => context.text("form"));
    app.get("/posts/:id", (context) => context.text(`post ${context.req.param("id")}`));
    for (let round = 0; round < 2; round++) {
      const form = await app.request("/posts/new");
      expect([form.status, await form.text(), form.headers.get("x-seen")]).toEqual([
        200,
        "form",
        "yes",
      ]);
      const post = await app.request("/posts/7");
      expect([post.status, await post.text()]).toEqual([200, "post 7"]);
      const head = await app.request("/posts/new", { method: "HEAD" });
      expect([head.status, await head.text()]).toEqual([200, ""]);
      expect((await app.request("/posts/new", { method: "DELETE" })).status).toBe(404);
    }
  });
});
