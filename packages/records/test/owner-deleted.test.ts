// A record write whose owner was deleted meanwhile (the account deleted while one of its
// requests is in flight): the foreign key on `user_id` refuses the row, and the answer is a
// 401 (JSON) or a 404 page (HTML), never a 500.

import { routeRequests } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { createSessionCookies } from "@tessera/session";
import { describe, expect, it } from "vitest";
import { htmlRecordRoutes } from "../src/html.js";
import { jsonRecordRoutes, MemoryObjectStorage } from "../src/index.js";
import {
  ADA,
  BOB,
  commentModel,
  envelope,
  ownersRequest,
  postBody,
  postModel,
  setUpApp,
  testAuthentication,
} from "./fixtures.js";

const sessions = createSessionCookies({
  appName: "tessera",
  secrets: { current: "a test secret key base that is long enough to use" },
});

type App = Awaited<ReturnType<typeof setUpApp>>;

const deleteUser = (app: App, id: number) =>
  app.database.run("DELETE FROM users WHERE id = ?", [id]);

/** A store whose insert first deletes the owner: the account goes after authentication. */
function storeDeletingOwner(app: App, model: typeof postModel) {
  class Racing extends SqlRecordStore {
    override async insert(...args: Parameters<SqlRecordStore["insert"]>) {
      await deleteUser(app, args[0]);
      return super.insert(...args);
    }
  }
  return new Racing(app.database, model);
}

/** A JSON create of Ada's. */
function jsonCreate(path: string, body: unknown): Request {
  return ownersRequest(ADA, `http://app.test${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function expectBearer401(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe("Bearer");
  expect(await envelope(response)).toEqual({
    error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
  });
}

describe("a JSON write whose owner is deleted before the insert", () => {
  it("answers 401 with `WWW-Authenticate: Bearer` and writes no post", async () => {
    const app = await setUpApp();
    const routes = routeRequests(
      jsonRecordRoutes({
        model: postModel,
        store: storeDeletingOwner(app, postModel),
        storage: app.storage,
        authenticate: testAuthentication,
      }),
    );
    await expectBearer401((await routes(jsonCreate("/api/posts", postBody())))!);
    expect(await app.rows("posts")).toEqual([]);
  });

  it("answers 401 for a comment whose referenced post went with the owner", async () => {
    const app = await setUpApp();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    const routes = routeRequests(
      jsonRecordRoutes({
        model: commentModel,
        store: storeDeletingOwner(app, commentModel),
        authenticate: testAuthentication,
      }),
    );
    const response = (await routes(jsonCreate("/api/comments", { post_id: 1, body: "x" })))!;
    await expectBearer401(response);
    expect(await app.rows("comments")).toEqual([]);
    expect(await app.rows("posts")).toEqual([]);
  });

  it("answers 401 when the owner was already gone before the reference check", async () => {
    const app = await setUpApp();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    await deleteUser(app, ADA);
    await expectBearer401(await app.sendJson(ADA, "POST", "/api/posts", postBody()));
    await expectBearer401(
      await app.sendJson(ADA, "POST", "/api/comments", { post_id: 1, body: "x" }),
    );
    expect(await app.rows("posts")).toEqual([]);
    expect(await app.rows("comments")).toEqual([]);
  });

  it("answers 404 to an update of a record that went with its owner", async () => {
    const app = await setUpApp();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    await deleteUser(app, ADA);
    const response = await app.sendJson(ADA, "PATCH", "/api/posts/1", { title: "Changed" });
    expect(response.status).toBe(404);
    expect(await envelope(response)).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
  });

  it("leaves other users' writes alone", async () => {
    const app = await setUpApp();
    await deleteUser(app, ADA);
    const response = await app.sendJson(BOB, "POST", "/api/posts", postBody({ title: "Bob's" }));
    expect(response.status).toBe(201);
    expect(await app.rows("posts")).toMatchObject([{ user_id: BOB, title: "Bob's" }]);
  });
});

describe("an HTML form whose owner is deleted before the insert", () => {
  it("answers a 404 page, writes no post and keeps no uploaded file", async () => {
    const app = await setUpApp();
    const storage = new MemoryObjectStorage();
    const layout = ({ mainHtml }: { mainHtml: string }) => `<main>${mainHtml}</main>`;
    const routes = routeRequests(
      htmlRecordRoutes({
        model: postModel,
        store: storeDeletingOwner(app, postModel),
        storage,
        layout,
        sessions,
        authenticate: testAuthentication,
      }),
    );
    const form = new FormData();
    form.append("title", "Hello");
    form.append("status", "draft");
    form.append("cover", new File(["png"], "a.png", { type: "image/png" }));
    const session = await sessions.read(new Request("http://app.test/posts"));
    const response = (await routes(
      ownersRequest(ADA, "http://app.test/posts", { method: "POST", body: form }),
      { session },
    ))!;
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("This account no longer exists.");
    expect(await app.rows("posts")).toEqual([]);
    expect(storage.keys()).toEqual([]);
    expect(session.takeFlashes()).toEqual([]);
  });
});
