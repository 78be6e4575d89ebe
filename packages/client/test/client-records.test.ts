// Records through the client with the app's own types: `tessera generate client` writes them
// from the document the running example app serves (committed in fixtures/app-api.d.ts; this
// suite fails when they are stale: `-u` writes them anew), and a client of those types creates,
// reads, changes, lists and deletes posts, signed in by the client's own calls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTesseraClient, TesseraError } from "../src/index.js";
import type { paths } from "./fixtures/app-api.js";
import { APP_TYPES_FILE, appTypes } from "./support/app-types.js";
import {
  type AppUnderTest,
  clientFetch,
  newEmail,
  PASSWORD,
  startAppUnderTest,
} from "./support/app-under-test.js";

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.stop());

async function signedInClient() {
  const client = createTesseraClient<paths>({ baseUrl: app.server.url, fetch: clientFetch() });
  const email = newEmail("records");
  await client.signUp({ email, password: PASSWORD });
  await client.signIn({ email, password: PASSWORD });
  return client;
}

describe("the app's client types", () => {
  it("are what `tessera generate client` writes from the served document", async () => {
    await expect(await appTypes(app.server.url)).toMatchFileSnapshot(APP_TYPES_FILE.pathname);
  });
});

describe("records through a client of the app's types", () => {
  it("creates, reads, updates, lists and deletes a post; gets the typed refusals", async () => {
    const client = await signedInClient();
    const created = await client.api.POST("/api/posts", {
      body: { title: "Typed", status: "review", published: true, views: 3 },
    });
    expect(created.response.status).toBe(201);
    const post = created.data!;
    expect(post).toMatchObject({ title: "Typed", status: "review", views: 3, lock_version: 0 });

    const read = await client.api.GET("/api/posts/{id}", { params: { path: { id: post.id } } });
    expect(read.data).toEqual(post);

    const updated = await client.api.PATCH("/api/posts/{id}", {
      params: { path: { id: post.id } },
      body: { title: "Changed", lock_version: 0 },
    });
    expect(updated.data).toMatchObject({ title: "Changed", lock_version: 1 });
    const stale = await client.api.PATCH("/api/posts/{id}", {
      params: { path: { id: post.id } },
      body: { title: "Lost", lock_version: 0 },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error?.error.code).toBe("stale_record");

    const blank = await client.api.POST("/api/posts", { body: { title: " ", status: "draft" } });
    expect(blank.response.status).toBe(422);
    const refusal = new TesseraError(blank.response.status, blank.error);
    expect([refusal.code, refusal.fields]).toEqual([
      "validation_failed",
      { title: ["can't be blank"] },
    ]);

    const listed = await client.api.GET("/api/posts", { params: { query: { limit: 10 } } });
    expect(listed.data?.map((each) => each.title)).toEqual(["Changed"]);

    const deleted = await client.api.DELETE("/api/posts/{id}", {
      params: { path: { id: post.id } },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await client.api.GET("/api/posts/{id}", { params: { path: { id: post.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: { code: "not_found", message: "Not found", status: 404 } });
  });

  it("keeps a note's typed fields, and another user's note is a 404", async () => {
    const client = await signedInClient();
    const note = await client.api.POST("/api/notes", {
      body: { title: "Groceries", tags: ["home"], word_count: 2 },
    });
    expect(note.response.status).toBe(201);
    expect(note.data).toMatchObject({ title: "Groceries", tags: ["home"], word_count: 2 });

    const stranger = await signedInClient();
    const hidden = await stranger.api.GET("/api/notes/{id}", {
      params: { path: { id: note.data!.id } },
    });
    expect(hidden.response.status).toBe(404);
  });
});
