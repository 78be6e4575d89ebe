import { describe, expect, it } from "vitest";
import { ADA, BOB, postBody, setUpApp } from "./fixtures.js";

const TAKEN = (key: string) => ({
  error: {
    code: "validation_failed",
    message: "Validation failed",
    status: 422,
    fields: { [key]: ["has already been taken"] },
  },
});

describe("unique fields answer `has already been taken`", () => {
  it("on create and update of labels (name:string^), across all users", async () => {
    const app = await setUpApp();
    const first = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
    expect(first.status).toBe(201);
    const { public_id: firstId } = (await first.json()) as { public_id: string };
    const again = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
    expect([again.status, await again.json()]).toEqual([422, TAKEN("name")]);
    // `^` is a unique index on the column: Ada's name is taken for Bob too.
    const bobs = await app.sendJson(BOB, "POST", "/api/labels", { name: "urgent" });
    expect([bobs.status, await bobs.json()]).toEqual([422, TAKEN("name")]);

    const second = await app.sendJson(ADA, "POST", "/api/labels", { name: "later" });
    const { public_id: secondId } = (await second.json()) as { public_id: string };
    const renamed = await app.sendJson(ADA, "PATCH", `/api/labels/${secondId}`, { name: "urgent" });
    expect([renamed.status, await renamed.json()]).toEqual([422, TAKEN("name")]);
    const bobsOwn = await app.sendJson(BOB, "POST", "/api/labels", { name: "mine" });
    const { public_id: bobsId } = (await bobsOwn.json()) as { public_id: string };
    const bobRenamed = await app.sendJson(BOB, "PATCH", `/api/labels/${bobsId}`, {
      name: "later",
    });
    expect([bobRenamed.status, await bobRenamed.json()]).toEqual([422, TAKEN("name")]);
    const same = await app.sendJson(ADA, "PATCH", `/api/labels/${firstId}`, {
      name: "urgent",
      color: "red",
    });
    expect(same.status).toBe(200);
    expect((await app.rows("labels")).map((row) => [row.user_id, row.name])).toEqual([
      [ADA, "urgent"],
      [ADA, "later"],
      [BOB, "mine"],
    ]);
  });

  it("lets exactly one of many racing creates win, the others get a 422 (never a 500)", async () => {
    const app = await setUpApp();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.sendJson(i % 2 === 0 ? ADA : BOB, "POST", "/api/labels", { name: "race" }),
      ),
    );
    // One winner in the whole table, whoever it is.
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(422)]);
    for (const answer of answers.filter((each) => each.status === 422)) {
      expect(await answer.json()).toEqual(TAKEN("name"));
    }
    expect(await app.rows("labels")).toHaveLength(1);
  });

  it("holds per owner for a field opted into owner scope (tags name:string^)", async () => {
    const app = await setUpApp();
    const adas = await app.sendJson(ADA, "POST", "/api/tags", { name: "urgent" });
    expect(adas.status).toBe(201);
    // Ada's name neither blocks Bob nor tells him it exists.
    const bobs = await app.sendJson(BOB, "POST", "/api/tags", { name: "urgent" });
    expect(bobs.status).toBe(201);
    const again = await app.sendJson(ADA, "POST", "/api/tags", { name: "urgent" });
    expect([again.status, await again.json()]).toEqual([422, TAKEN("name")]);
    const { response, html } = await app.submit(
      BOB,
      "/tags",
      new URLSearchParams({ name: "urgent" }),
    );
    expect(response.status).toBe(422);
    expect(html).toContain('<a href="#field-name">Name has already been taken</a>');

    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.sendJson(i % 2 === 0 ? ADA : BOB, "POST", "/api/tags", { name: "race" }),
      ),
    );
    // One winner per owner.
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 201, ...Array(8).fill(422)]);
    expect((await app.rows("tags")).map((row) => [row.user_id, row.name]).sort()).toEqual([
      [ADA, "race"],
      [ADA, "urgent"],
      [BOB, "race"],
      [BOB, "urgent"],
    ]);
  });

  it("allows any number of nulls for an optional unique field (posts slug:string?^)", async () => {
    const app = await setUpApp();
    for (const slug of [undefined, null, "", "  "]) {
      const body = slug === undefined ? postBody() : postBody({ slug });
      expect((await app.sendJson(ADA, "POST", "/api/posts", body)).status).toBe(201);
    }
    expect(
      (await app.sendJson(ADA, "POST", "/api/posts", postBody({ slug: "hello" }))).status,
    ).toBe(201);
    const duplicate = await app.sendJson(ADA, "POST", "/api/posts", postBody({ slug: "hello" }));
    expect([duplicate.status, await duplicate.json()]).toEqual([422, TAKEN("slug")]);
    const bobs = await app.sendJson(BOB, "POST", "/api/posts", postBody({ slug: "hello" }));
    expect([bobs.status, await bobs.json()]).toEqual([422, TAKEN("slug")]);
    expect((await app.sendJson(BOB, "POST", "/api/posts", postBody())).status).toBe(201);
    const cleared = await app.sendJson(ADA, "PATCH", "/api/posts/5", { slug: null });
    expect(cleared.status).toBe(200);
    expect((await app.rows("posts")).map((row) => row.slug)).toEqual(Array(6).fill(null));
  });

  it("lets one of many racing slug creates and updates win", async () => {
    const app = await setUpApp();
    const creates = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.sendJson(ADA, "POST", "/api/posts", postBody({ slug: "same" })),
      ),
    );
    expect(creates.map((answer) => answer.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    for (let i = 0; i < 3; i++) await app.sendJson(ADA, "POST", "/api/posts", postBody());
    const ids = (await app.rows("posts")).filter((row) => row.slug === null).map((row) => row.id);
    const updates = await Promise.all(
      ids.map((id) => app.sendJson(ADA, "PATCH", `/api/posts/${id}`, { slug: "other" })),
    );
    expect(updates.map((answer) => answer.status).sort()).toEqual([200, 422, 422]);
    expect(await updates.find((answer) => answer.status === 422)!.json()).toEqual(TAKEN("slug"));
  });

  it("shows `Name has already been taken` on the HTML form", async () => {
    const app = await setUpApp();
    await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
    const { response, html } = await app.submit(
      ADA,
      "/labels",
      new URLSearchParams({ name: "urgent", color: "blue" }),
    );
    expect(response.status).toBe(422);
    expect(html).toContain('<a href="#field-name">Name has already been taken</a>');
    expect(html).toContain('value="blue"');
  });
});
