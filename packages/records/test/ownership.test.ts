import { describe, expect, it } from "vitest";
import { ADA, BOB, envelope, fileForm, postBody, setUpApp } from "./fixtures.js";

const NOT_FOUND = { error: { code: "not_found", message: "Not found", status: 404 } };

/** Ada's post 1 with a cover and one photo, and Ada's label; Bob has nothing. */
async function adaWithRecords() {
  const app = await setUpApp();
  expect((await app.sendJson(ADA, "POST", "/api/posts", postBody({ slug: "mine" }))).status).toBe(
    201,
  );
  const cover = await app.api(ADA, "PUT", "/api/posts/1/cover", {
    body: fileForm("cover bytes", "cover.txt", "text/plain"),
  });
  expect(cover.status).toBe(200);
  const photo = await app.api(ADA, "POST", "/api/posts/1/photos", {
    body: fileForm("photo bytes", "photo.png", "image/png"),
  });
  expect(photo.status).toBe(201);
  const label = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
  const labelId = ((await label.json()) as { public_id: string }).public_id;
  const snapshot = async () => ({
    posts: await app.rows("posts"),
    photos: await app.rows("post_photo"),
    labels: await app.rows("labels"),
    objects: app.storage.keys(),
  });
  return { app, labelId, before: await snapshot(), snapshot };
}

describe("another user's records are answered exactly like missing ones", () => {
  it("gives 404 `Not found` on every JSON route, and changes nothing", async () => {
    const { app, labelId, before, snapshot } = await adaWithRecords();
    const json = { headers: { "Content-Type": "application/json" } };
    const requests: Array<[string, string, RequestInit?]> = [
      ["GET", "/api/posts/1"],
      ["PATCH", "/api/posts/1", { ...json, body: JSON.stringify({ title: "Bob's now" }) }],
      ["PATCH", "/api/posts/1", { ...json, body: "not even json" }],
      ["DELETE", "/api/posts/1"],
      ["GET", "/api/posts/1/cover"],
      ["PUT", "/api/posts/1/cover", { body: fileForm("evil", "evil.txt", "text/plain") }],
      ["DELETE", "/api/posts/1/cover"],
      ["GET", "/api/posts/1/photos"],
      ["POST", "/api/posts/1/photos", { body: fileForm("evil", "evil.png", "image/png") }],
      ["GET", "/api/posts/1/photos/1"],
      ["DELETE", "/api/posts/1/photos/1"],
      ["GET", `/api/labels/${labelId}`],
      ["PATCH", `/api/labels/${labelId}`, { ...json, body: JSON.stringify({ name: "mine" }) }],
      ["DELETE", `/api/labels/${labelId}`],
    ];
    for (const [method, path, init] of requests) {
      const bobs = await app.api(BOB, method, path, init);
      expect([method, path, bobs.status, await bobs.json()]).toEqual([
        method,
        path,
        404,
        NOT_FOUND,
      ]);
    }
    expect(await snapshot()).toEqual(before);
    // And the same paths with an id nobody has give the very same answer.
    const missing = await app.api(ADA, "GET", "/api/posts/2");
    expect([missing.status, await missing.json()]).toEqual([404, NOT_FOUND]);
  });

  it("gives a 404 page on every HTML route, and changes nothing", async () => {
    const { app, labelId, before, snapshot } = await adaWithRecords();
    const form = new URLSearchParams({ title: "Bob's now", status: "draft" });
    const requests: Array<[string, string, RequestInit?]> = [
      ["GET", "/posts/1"],
      ["GET", "/posts/1/edit"],
      ["POST", "/posts/1", { body: form }],
      ["POST", "/posts/1/delete"],
      ["GET", "/posts/1/cover"],
      ["GET", "/posts/1/photos/1"],
      ["GET", `/labels/${labelId}`],
      ["POST", `/labels/${labelId}/delete`],
    ];
    for (const [method, path, init] of requests) {
      const { response, html } = await app.page(BOB, method, path, init);
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(html).toContain("<h1>Not found</h1>");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("lists only the user's own records", async () => {
    const { app } = await adaWithRecords();
    await app.sendJson(BOB, "POST", "/api/posts", postBody({ title: "Bob's" }));
    const bobs = (await (await app.api(BOB, "GET", "/api/posts")).json()) as Array<{
      title: string;
    }>;
    expect(bobs.map((post) => post.title)).toEqual(["Bob's"]);
    const { html } = await app.page(BOB, "GET", "/posts");
    expect(html).toContain("Bob&#39;s");
    expect(html).not.toContain("Hello");
  });

  it("answers 404 without a query for ids that cannot name a record", async () => {
    const { app, labelId } = await adaWithRecords();
    for (const path of [
      "/api/posts/0",
      "/api/posts/abc",
      "/api/posts/1.0",
      "/api/posts/01",
      "/api/posts/99999999999999999",
    ]) {
      expect((await app.api(ADA, "GET", path)).status).toBe(404);
    }
    // A model with a public id takes only the public id: its integer id is not a route.
    expect((await app.api(ADA, "GET", "/api/labels/1")).status).toBe(404);
    expect((await app.api(ADA, "GET", `/api/labels/${labelId.slice(0, 21)}`)).status).toBe(404);
    expect((await app.api(ADA, "GET", "/api/labels/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await app.api(ADA, "GET", `/api/labels/${labelId}`)).status).toBe(200);
  });
});

describe("public ids", () => {
  it("name the record in routes and replace the integer id in JSON", async () => {
    const ids = ["Pub_lic-Id_22_chars_ok", "Second_public_id_22_ch"];
    const app = await setUpApp({ newPublicId: () => ids.shift()! });
    const created = await app.sendJson(ADA, "POST", "/api/labels", {
      name: "urgent",
      public_id: "client-chosen-id-xxxxx",
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({
      public_id: "Pub_lic-Id_22_chars_ok",
      user_id: ADA,
      name: "urgent",
      color: null,
      created_at: "2025-01-01 08:00:00",
      updated_at: "2025-01-01 08:00:00",
    });
    const patched = await app.sendJson(ADA, "PATCH", "/api/labels/Pub_lic-Id_22_chars_ok", {
      color: "red",
      public_id: "another-id-of-22-chars",
    });
    expect(await patched.json()).toMatchObject({
      public_id: "Pub_lic-Id_22_chars_ok",
      color: "red",
    });
    const listed = (await (await app.api(ADA, "GET", "/api/labels")).json()) as object[];
    expect(listed).toEqual([expect.not.objectContaining({ id: expect.anything() })]);
    const { response } = await app.submit(ADA, "/labels", new URLSearchParams({ name: "later" }));
    expect(response.headers.get("location")).toBe("/labels/Second_public_id_22_ch");
    expect((await app.api(ADA, "DELETE", "/api/labels/Pub_lic-Id_22_chars_ok")).status).toBe(204);
    expect((await app.api(ADA, "GET", "/api/labels/Pub_lic-Id_22_chars_ok")).status).toBe(404);
    expect(
      (await envelope(await app.api(ADA, "DELETE", "/api/labels/Pub_lic-Id_22_chars_ok"))).error
        .message,
    ).toBe("Not found");
  });
});
