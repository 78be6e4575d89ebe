import { describe, expect, it } from "vitest";
import { recordMessages } from "../src/index.js";
import { ADA, BOB, postBody, setUpApp } from "./fixtures.js";

async function withPost() {
  const app = await setUpApp();
  expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
  const lockVersion = async () => (await app.rows("posts"))[0]!.lock_version;
  return { app, lockVersion };
}

describe("optimistic locking (lock_version:integer)", () => {
  it("starts at 0 and increases by one on every update, sent or not", async () => {
    const { app, lockVersion } = await withPost();
    expect(await lockVersion()).toBe(0);
    const sent = await app.sendJson(ADA, "PATCH", "/api/posts/1", { title: "A", lock_version: 0 });
    expect([sent.status, ((await sent.json()) as { lock_version: number }).lock_version]).toEqual([
      200, 1,
    ]);
    const omitted = await app.sendJson(ADA, "PATCH", "/api/posts/1", { title: "B" });
    expect(omitted.status).toBe(200);
    const empty = await app.sendJson(ADA, "PATCH", "/api/posts/1", {});
    expect(empty.status).toBe(200);
    expect(await lockVersion()).toBe(3);
  });

  it("answers 409 to a stale version and leaves the row as it was", async () => {
    const { app, lockVersion } = await withPost();
    await app.sendJson(ADA, "PATCH", "/api/posts/1", { title: "First", lock_version: 0 });
    const stale = await app.sendJson(ADA, "PATCH", "/api/posts/1", {
      title: "Second",
      lock_version: 0,
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: {
        code: "stale_record",
        message: recordMessages.english["records.stale_record"],
        status: 409,
      },
    });
    expect((await app.rows("posts"))[0]).toMatchObject({ title: "First", lock_version: 1 });
    const ahead = await app.sendJson(ADA, "PATCH", "/api/posts/1", {
      title: "Third",
      lock_version: 5,
    });
    expect(ahead.status).toBe(409);
    expect(await lockVersion()).toBe(1);
  });

  it("tells a missing or foreign record (404) from a stale one (409)", async () => {
    const { app } = await withPost();
    expect((await app.sendJson(BOB, "PATCH", "/api/posts/1", { lock_version: 9 })).status).toBe(
      404,
    );
    expect((await app.sendJson(ADA, "PATCH", "/api/posts/2", { lock_version: 0 })).status).toBe(
      404,
    );
  });

  it("lets exactly one of many concurrent updates of the same version through", async () => {
    const { app, lockVersion } = await withPost();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.sendJson(ADA, "PATCH", "/api/posts/1", { title: `Writer ${i}`, lock_version: 0 }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await lockVersion()).toBe(1);
  });

  it("loses no increment when concurrent updates send no version", async () => {
    const { app, lockVersion } = await withPost();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => app.sendJson(ADA, "PATCH", "/api/posts/1", { views: i })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await lockVersion()).toBe(8);
  });

  it("re-renders a stale HTML edit with 409, the message and what was typed", async () => {
    const { app, lockVersion } = await withPost();
    const { html: editPage } = await app.page(ADA, "GET", "/posts/1/edit");
    expect(editPage).toContain('<input type="hidden" name="lock_version" value="0">');
    await app.sendJson(ADA, "PATCH", "/api/posts/1", { title: "Changed elsewhere" });
    const form = new URLSearchParams({ title: "My edit", status: "review", lock_version: "0" });
    const { response, html, session } = await app.submit(ADA, "/posts/1", form);
    expect(response.status).toBe(409);
    expect(html).toContain(recordMessages.english["records.stale_record"]);
    expect(html).toContain('value="My edit"');
    expect(session.takeFlashes()).toEqual([]);
    expect((await app.rows("posts"))[0]).toMatchObject({ title: "Changed elsewhere" });
    const fresh = new URLSearchParams({ title: "My edit", status: "review", lock_version: "1" });
    const retried = await app.submit(ADA, "/posts/1", fresh);
    expect(retried.response.status).toBe(303);
    expect(await lockVersion()).toBe(2);
  });
});
