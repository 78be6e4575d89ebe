import { routeRequests } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { describe, expect, it } from "vitest";
import { jsonRecordRoutes } from "../src/index.js";
import {
  ADA,
  BOB,
  commentModel,
  envelope,
  ownersRequest,
  postBody,
  setUpApp,
  testAuthentication,
} from "./fixtures.js";

const MUST_EXIST = (key: string) => ({
  error: {
    code: "validation_failed",
    message: "Validation failed",
    status: 422,
    fields: { [key]: ["must exist"] },
  },
});

/** Ada's post 1 and Bob's post 2. */
async function twoPosts() {
  const app = await setUpApp();
  expect((await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: "Ada's" }))).status).toBe(
    201,
  );
  expect((await app.sendJson(BOB, "POST", "/api/posts", postBody({ title: "Bob's" }))).status).toBe(
    201,
  );
  return app;
}

describe("references (comments: post:references)", () => {
  it("accepts the owner's post and refuses a missing one or another user's with `must exist`", async () => {
    const app = await twoPosts();
    const ok = await app.sendJson(ADA, "POST", "/api/comments", { post_id: 1, body: "Nice" });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ id: 1, user_id: ADA, post_id: 1, body: "Nice" });
    for (const postId of [2, 999, 0, -1]) {
      const refused = await app.sendJson(ADA, "POST", "/api/comments", {
        post_id: postId,
        body: "x",
      });
      expect([postId, refused.status, await refused.json()]).toEqual([
        postId,
        422,
        MUST_EXIST("post_id"),
      ]);
    }
    expect(await app.rows("comments")).toHaveLength(1);
  });

  it("answers 400 for a reference of the wrong JSON type or a missing one", async () => {
    const app = await twoPosts();
    const wrong = await app.sendJson(ADA, "POST", "/api/comments", { post_id: "1", body: "x" });
    expect((await envelope(wrong)).error.message).toBe(
      'Failed to deserialize the JSON body into the target type: post_id: invalid type: string "1", expected an integer',
    );
    const missing = await app.sendJson(ADA, "POST", "/api/comments", { body: "x" });
    expect((await envelope(missing)).error.message).toBe(
      "Failed to deserialize the JSON body into the target type: missing field `post_id`",
    );
  });

  it("checks a changed reference on update, with the owner", async () => {
    const app = await twoPosts();
    await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: "Ada's second" }));
    await app.sendJson(ADA, "POST", "/api/comments", { post_id: 1, body: "x" });
    const foreign = await app.sendJson(ADA, "PATCH", "/api/comments/1", { post_id: 2 });
    expect([foreign.status, await foreign.json()]).toEqual([422, MUST_EXIST("post_id")]);
    const moved = await app.sendJson(ADA, "PATCH", "/api/comments/1", { post_id: 3 });
    expect(await moved.json()).toMatchObject({ post_id: 3 });
    const untouched = await app.sendJson(ADA, "PATCH", "/api/comments/1", { body: "edited" });
    expect(await untouched.json()).toMatchObject({ post_id: 3, body: "edited" });
  });

  it("deletes a post's comments with it (ON DELETE CASCADE)", async () => {
    const app = await twoPosts();
    await app.sendJson(ADA, "POST", "/api/comments", { post_id: 1, body: "x" });
    expect((await app.api(ADA, "DELETE", "/api/posts/1")).status).toBe(204);
    expect(await app.rows("comments")).toEqual([]);
  });

  it("shows `Post must exist` on the HTML form, keeping what was typed", async () => {
    const app = await twoPosts();
    for (const postId of ["2", "", "77"]) {
      const { response, html } = await app.submit(
        ADA,
        "/comments",
        new URLSearchParams({ post_id: postId, body: "typed text" }),
      );
      expect(response.status).toBe(422);
      expect(html).toContain("Post must exist");
      expect(html).toContain(">typed text</textarea>");
      expect(html).toContain(`value="${postId}"`);
    }
  });

  it("turns a referenced row deleted between the check and the insert into `must exist`", async () => {
    const app = await twoPosts();
    // The check passes, then the post goes: the foreign key refuses the insert.
    class RacingStore extends SqlRecordStore {
      override async exists(ownerId: number, table: string, id: number) {
        const found = await super.exists(ownerId, table, id);
        await app.database.run("DELETE FROM posts WHERE id = ?", [id]);
        return found;
      }
    }
    const racing = new RacingStore(app.database, commentModel);
    const routes = routeRequests(
      jsonRecordRoutes({ model: commentModel, store: racing, authenticate: testAuthentication }),
    );
    const response = (await routes(
      ownersRequest(ADA, "http://app.test/api/comments", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ post_id: 1, body: "x" }),
      }),
    ))!;
    expect([response.status, await response.json()]).toEqual([422, MUST_EXIST("post_id")]);
  });
});

describe("polymorphic references (reactions: target:polymorphic:post,comment)", () => {
  it("accepts the owner's post or comment and refuses anything else with `must exist` on target_id", async () => {
    const app = await twoPosts();
    await app.sendJson(ADA, "POST", "/api/comments", { post_id: 1, body: "x" });
    const post = await app.sendJson(ADA, "POST", "/api/reactions", {
      target_type: "post",
      target_id: 1,
      kind: "love",
    });
    expect(await post.json()).toMatchObject({ target_type: "post", target_id: 1, kind: "love" });
    const comment = await app.sendJson(ADA, "POST", "/api/reactions", {
      target_type: "comment",
      target_id: 1,
      kind: "like",
    });
    expect(comment.status).toBe(201);
    for (const [type, id] of [
      ["post", 2], // Bob's post
      ["post", 404],
      ["comment", 2], // no such comment, though a post 2 exists
    ] as const) {
      const refused = await app.sendJson(ADA, "POST", "/api/reactions", {
        target_type: type,
        target_id: id,
        kind: "like",
      });
      expect([type, id, refused.status, await refused.json()]).toEqual([
        type,
        id,
        422,
        MUST_EXIST("target_id"),
      ]);
    }
    expect(await app.rows("reactions")).toHaveLength(2);
  });

  it("refuses a type outside the list (400) and half a pair (422 on target_id)", async () => {
    const app = await twoPosts();
    const user = await app.sendJson(ADA, "POST", "/api/reactions", {
      target_type: "user",
      target_id: 1,
      kind: "like",
    });
    expect((await envelope(user)).error.message).toBe(
      "Failed to deserialize the JSON body into the target type: target_type: unknown variant `user`, expected one of `post`, `comment`",
    );
    await app.sendJson(ADA, "POST", "/api/reactions", {
      target_type: "post",
      target_id: 1,
      kind: "like",
    });
    const half = await app.sendJson(ADA, "PATCH", "/api/reactions/1", { target_id: 1 });
    expect([half.status, await half.json()]).toEqual([422, MUST_EXIST("target_id")]);
    const foreign = await app.sendJson(ADA, "PATCH", "/api/reactions/1", {
      target_type: "post",
      target_id: 2,
    });
    expect([foreign.status, await foreign.json()]).toEqual([422, MUST_EXIST("target_id")]);
  });

  it("shows `Target must exist` on the HTML form", async () => {
    const app = await twoPosts();
    const { response, html } = await app.submit(
      ADA,
      "/reactions",
      new URLSearchParams({ target_type: "post", target_id: "2", kind: "love" }),
    );
    expect(response.status).toBe(422);
    expect(html).toContain('<a href="#field-target_id">Target must exist</a>');
    expect(html).toContain('<option value="love" selected>');
  });
});
