import { SqlRecordStore } from "@tessera/records/sql";
import { describe, expect, it } from "vitest";
import { jsonRecordRoutes } from "../src/index.js";
import {
  ADA,
  BOB,
  commentModel,
  envelope,
  fileForm,
  postBody,
  postModel,
  setUpApp,
  T0,
  testAuthentication,
} from "./fixtures.js";

const ALLOWED = "image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain";
const MB = 1024 * 1024;
const KEY = /^[A-Za-z0-9_-]{43}$/;

async function withPost(overrides: Parameters<typeof setUpApp>[0] = {}) {
  const app = await setUpApp(overrides);
  expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
  return app;
}

const put = (app: Awaited<ReturnType<typeof withPost>>, form: FormData) =>
  app.api(ADA, "PUT", "/api/posts/1/cover", { body: form });

describe("single attachment (posts cover:attachment?)", () => {
  it("stores an upload under a random key, never the filename, and sets the four columns", async () => {
    const app = await withPost();
    const response = await put(
      app,
      fileForm("cover bytes", "../../etc/passwd.txt", "text/plain; charset=utf-8"),
    );
    expect(response.status).toBe(200);
    const record = (await response.json()) as Record<string, unknown>;
    expect(record).toMatchObject({
      cover_filename: "passwd.txt",
      cover_content_type: "text/plain",
      cover_size: 11,
      lock_version: 1,
    });
    expect(record.cover_key).toMatch(KEY);
    expect(app.storage.keys()).toEqual([record.cover_key]);
    const stored = await app.storage.get(record.cover_key as string);
    expect(new TextDecoder().decode(stored!.bytes)).toBe("cover bytes");
  });

  it("downloads with the stored type, a safe Content-Disposition and nosniff, on the JSON and HTML routes", async () => {
    const app = await withPost();
    await put(app, fileForm("%PDF-1.7", 'résumé "final"\r\n.pdf', "application/pdf"));
    for (const download of [
      await app.api(ADA, "GET", "/api/posts/1/cover"),
      (await app.page(ADA, "GET", "/posts/1/cover")).response,
    ]) {
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/pdf");
      expect(download.headers.get("x-content-type-options")).toBe("nosniff");
      expect(download.headers.get("content-disposition")).toBe(
        `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
      );
      expect(await download.text()).toBe("%PDF-1.7");
    }
  });

  it("replaces the file and deletes the old object; DELETE removes it", async () => {
    const app = await withPost();
    const first = (await (await put(app, fileForm("one", "a.txt", "text/plain"))).json()) as {
      cover_key: string;
    };
    const second = (await (await put(app, fileForm("two", "b.png", "image/png"))).json()) as {
      cover_key: string;
      lock_version: number;
    };
    expect(second.cover_key).not.toBe(first.cover_key);
    expect(second.lock_version).toBe(2);
    expect(app.storage.keys()).toEqual([second.cover_key]);

    const removed = await app.api(ADA, "DELETE", "/api/posts/1/cover");
    expect(removed.status).toBe(204);
    expect(app.storage.keys()).toEqual([]);
    expect((await app.rows("posts"))[0]).toMatchObject({
      cover_key: null,
      cover_filename: null,
      cover_content_type: null,
      cover_size: null,
    });
    expect((await app.api(ADA, "DELETE", "/api/posts/1/cover")).status).toBe(404);
    expect((await app.api(ADA, "GET", "/api/posts/1/cover")).status).toBe(404);
  });

  it("refuses a file over 10 MB with `is too large (maximum is 10 MB)`, parsed or not", async () => {
    const app = await withPost();
    const justOver = await put(app, fileForm(new Uint8Array(10 * MB + 1), "big.png", "image/png"));
    expect([justOver.status, await justOver.json()]).toEqual([
      422,
      {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { cover: ["is too large (maximum is 10 MB)"] },
        },
      },
    ]);
    // Far over: refused from the byte count, before the multipart parser runs.
    const farOver = await put(app, fileForm(new Uint8Array(11 * MB), "huge.png", "image/png"));
    expect((await envelope(farOver)).error.fields).toEqual({
      cover: ["is too large (maximum is 10 MB)"],
    });
    expect(app.storage.keys()).toEqual([]);
    expect((await app.rows("posts"))[0]!.cover_key).toBeNull();
  });

  it("refuses a body whose Content-Length is over the cap without reading it", async () => {
    const app = await withPost();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(MB));
      },
    });
    const response = await app.api(ADA, "PUT", "/api/posts/1/cover", {
      body,
      duplex: "half",
      headers: {
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(50 * MB),
      },
    } as RequestInit);
    expect((await envelope(response)).error.fields).toEqual({
      cover: ["is too large (maximum is 10 MB)"],
    });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("refuses a content type outside the rules, with both messages when both fail", async () => {
    const rules = { cover: { maxBytes: MB / 2, contentTypes: ["image/png"] } };
    const app = await withPost({ attachmentRules: rules });
    const html = await put(app, fileForm(new Uint8Array(MB / 2 + 1), "x.html", "text/html"));
    expect((await envelope(html)).error.fields).toEqual({
      cover: ["is too large (maximum is 0.5 MB)", "has an unsupported type (allowed: image/png)"],
    });
    const defaults = await withPost();
    const svg = await put(defaults, fileForm("<svg/>", "x.svg", "image/svg+xml"));
    expect((await envelope(svg)).error.fields).toEqual({
      cover: [`has an unsupported type (allowed: ${ALLOWED})`],
    });
    expect(defaults.storage.keys()).toEqual([]);
  });

  it("needs a multipart body with a file in part `file`", async () => {
    const app = await withPost();
    const noFile = new FormData();
    noFile.append("file", "just text");
    noFile.append("other", new File(["x"], "x.txt", { type: "text/plain" }));
    expect((await envelope(await put(app, noFile))).error).toEqual({
      code: "validation_failed",
      message: "Validation failed",
      status: 422,
      fields: { cover: ["can't be blank"] },
    });
    const json = await app.sendJson(ADA, "PUT", "/api/posts/1/cover", { cover: "data:..." });
    expect((await envelope(json)).error).toEqual({
      code: "bad_request",
      message: "Failed to deserialize form body: expected `Content-Type: multipart/form-data`",
      status: 400,
    });
    const broken = await app.api(ADA, "PUT", "/api/posts/1/cover", {
      body: "--x\r\nnot a part",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect((await envelope(broken)).error.message).toBe(
      "Failed to deserialize form body: the body is not valid multipart/form-data",
    );
  });
});

describe("multi-file attachments (posts photos:attachments)", () => {
  it("adds, lists, downloads and removes files in the child table", async () => {
    const app = await withPost();
    const add = (name: string) =>
      app.api(ADA, "POST", "/api/posts/1/photos", {
        body: fileForm(`bytes of ${name}`, name, "image/png"),
      });
    const first = await add("one.png");
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({
      id: 1,
      photo_key: expect.stringMatching(KEY),
      photo_filename: "one.png",
      photo_content_type: "image/png",
      photo_size: 16,
      created_at: "2025-01-01 08:00:00",
      updated_at: "2025-01-01 08:00:00",
    });
    await add("two.png");
    const listed = (await (await app.api(ADA, "GET", "/api/posts/1/photos")).json()) as Array<{
      id: number;
      photo_filename: string;
    }>;
    expect(listed.map((file) => [file.id, file.photo_filename])).toEqual([
      [1, "one.png"],
      [2, "two.png"],
    ]);
    const download = await app.api(ADA, "GET", "/api/posts/1/photos/2");
    expect(await download.text()).toBe("bytes of two.png");
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="two.png"; filename*=UTF-8''two.png`,
    );

    expect((await app.api(ADA, "DELETE", "/api/posts/1/photos/1")).status).toBe(204);
    expect((await app.api(ADA, "DELETE", "/api/posts/1/photos/1")).status).toBe(404);
    expect((await app.api(ADA, "GET", "/api/posts/1/photos/1")).status).toBe(404);
    expect(app.storage.keys()).toHaveLength(1);
    expect(await app.rows("post_photo")).toHaveLength(1);
  });

  it("DELETE on the field removes every file of the record: rows and objects, and only those", async () => {
    const app = await withPost();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    expect((await app.sendJson(BOB, "POST", "/api/posts", postBody())).status).toBe(201);
    const add = (ownerId: number, post: number, name: string) =>
      app.api(ownerId, "POST", `/api/posts/${post}/photos`, {
        body: fileForm(`bytes of ${name}`, name, "image/png"),
      });
    for (const name of ["a.png", "b.png", "c.png"])
      expect((await add(ADA, 1, name)).status).toBe(201);
    const kept = [await add(ADA, 2, "other post.png"), await add(BOB, 3, "bob.png")];
    const keptKeys = await Promise.all(
      kept.map(async (answer) => ((await answer.json()) as { photo_key: string }).photo_key),
    );
    const before = await app.api(ADA, "GET", "/api/posts/1");
    app.setNow(T0 + 60_000);

    // Bob cannot empty Ada's post: a 404, as for a missing record, and nothing goes.
    const foreign = await app.api(BOB, "DELETE", "/api/posts/1/photos");
    expect(foreign.status).toBe(404);
    expect(await envelope(foreign)).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
    expect(await app.rows("post_photo")).toHaveLength(5);
    expect(app.storage.keys()).toHaveLength(5);

    const deleted = await app.api(ADA, "DELETE", "/api/posts/1/photos");
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    const left = await app.rows("post_photo");
    expect(left.map((row) => row.photo_key).sort()).toEqual([...keptKeys].sort());
    expect(app.storage.keys().sort()).toEqual([...keptKeys].sort());
    expect(await (await app.api(ADA, "GET", "/api/posts/1/photos")).json()).toEqual([]);
    // The post itself is not written, as when one file is added or deleted.
    expect(await (await app.api(ADA, "GET", "/api/posts/1")).json()).toEqual(await before.json());

    // Nothing left is still a success; a missing post or another field is not.
    expect((await app.api(ADA, "DELETE", "/api/posts/1/photos")).status).toBe(204);
    expect((await app.api(ADA, "DELETE", "/api/posts/9/photos")).status).toBe(404);
    expect((await app.api(ADA, "DELETE", "/api/posts/x/photos")).status).toBe(404);
    // One file at a time still works beside it.
    const file = (await (await add(ADA, 1, "d.png")).json()) as { id: number };
    expect((await app.api(ADA, "DELETE", `/api/posts/1/photos/${file.id}`)).status).toBe(204);
  });

  it("applies the rules to each file, on the field's name", async () => {
    const app = await withPost();
    const refused = await app.api(ADA, "POST", "/api/posts/1/photos", {
      body: fileForm("x", "x.exe", "application/x-msdownload"),
    });
    expect((await envelope(refused)).error.fields).toEqual({
      photos: [`has an unsupported type (allowed: ${ALLOWED})`],
    });
    expect(await app.rows("post_photo")).toEqual([]);
    expect(app.storage.keys()).toEqual([]);
  });
});

describe("deleting a record deletes its stored files", () => {
  it("through the JSON route: cover and every photo", async () => {
    const app = await withPost();
    await put(app, fileForm("cover", "c.png", "image/png"));
    for (const name of ["a.png", "b.png"]) {
      await app.api(ADA, "POST", "/api/posts/1/photos", {
        body: fileForm(name, name, "image/png"),
      });
    }
    expect(app.storage.keys()).toHaveLength(3);
    expect((await app.api(ADA, "DELETE", "/api/posts/1")).status).toBe(204);
    expect(app.storage.keys()).toEqual([]);
    expect(await app.rows("post_photo")).toEqual([]);
    expect(await app.rows("posts")).toEqual([]);
  });

  it("through the HTML route, with the flash", async () => {
    const app = await withPost();
    await put(app, fileForm("cover", "c.png", "image/png"));
    await app.api(ADA, "POST", "/api/posts/1/photos", {
      body: fileForm("p", "p.png", "image/png"),
    });
    const { response, session } = await app.page(ADA, "POST", "/posts/1/delete");
    expect([response.status, response.headers.get("location")]).toEqual([303, "/posts"]);
    expect(session.takeFlashes()).toEqual([{ kind: "notice", message: "Post was deleted." }]);
    expect(app.storage.keys()).toEqual([]);
  });

  it("reports an object that cannot be deleted and still answers 204", async () => {
    const reported: string[] = [];
    const app = await withPost({ onStorageError: (_error, key) => reported.push(key) });
    const { cover_key } = (await (await put(app, fileForm("c", "c.png", "image/png"))).json()) as {
      cover_key: string;
    };
    const original = app.storage.delete.bind(app.storage);
    app.storage.delete = async () => {
      throw new Error("disk on fire");
    };
    expect((await app.api(ADA, "DELETE", "/api/posts/1")).status).toBe(204);
    expect(reported).toEqual([cover_key]);
    app.storage.delete = original;
  });
});

describe("HTML forms with files", () => {
  function postForm(fields: Record<string, string>, files: Record<string, File[]> = {}) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const [name, list] of Object.entries(files))
      for (const file of list) form.append(name, file);
    return form;
  }
  const png = (name: string) => new File([`png ${name}`], name, { type: "image/png" });

  it("creates a post with a cover and photos, then shows download links", async () => {
    const app = await setUpApp();
    const form = postForm(
      { title: "With files", status: "draft" },
      { cover: [png("cover.png")], photos: [png("a.png"), png("b.png")] },
    );
    const { response, session } = await app.submit(ADA, "/posts", form);
    expect([response.status, response.headers.get("location")]).toEqual([303, "/posts/1"]);
    expect(session.takeFlashes()).toEqual([{ kind: "notice", message: "Post was created." }]);
    expect(app.storage.keys()).toHaveLength(3);
    expect((await app.rows("post_photo")).map((row) => row.photo_filename)).toEqual([
      "a.png",
      "b.png",
    ]);
    const { html } = await app.page(ADA, "GET", "/posts/1");
    expect(html).toContain('<a href="/posts/1/cover" download>cover.png</a>');
    expect(html).toContain('<a href="/posts/1/photos/2" download>b.png</a>');
    const photo = await app.page(ADA, "GET", "/posts/1/photos/2");
    expect(photo.html).toBe("png b.png");
  });

  it("stores nothing when the form is refused, and says why in full sentences", async () => {
    const app = await setUpApp();
    const badType = postForm(
      { title: "", status: "draft" },
      {
        cover: [new File(["<svg/>"], "x.svg", { type: "image/svg+xml" })],
        photos: [png("ok.png")],
      },
    );
    const { response, html } = await app.submit(ADA, "/posts", badType);
    expect(response.status).toBe(422);
    expect(html).toContain("Title can&#39;t be blank");
    expect(html).toContain(`Cover has an unsupported type (allowed: ${ALLOWED})`);
    expect(app.storage.keys()).toEqual([]);

    await app.sendJson(ADA, "POST", "/api/posts", postBody({ slug: "taken" }));
    const taken = postForm(
      { title: "T", status: "draft", slug: "taken" },
      { cover: [png("c.png")], photos: [png("p.png")] },
    );
    const refused = await app.submit(ADA, "/posts", taken);
    expect(refused.response.status).toBe(422);
    expect(refused.html).toContain("Slug has already been taken");
    expect(app.storage.keys()).toEqual([]);
    expect(await app.rows("post_photo")).toEqual([]);
  });

  it("replaces the cover and adds photos on update", async () => {
    const app = await setUpApp();
    await app.submit(
      ADA,
      "/posts",
      postForm({ title: "T", status: "draft" }, { cover: [png("old.png")] }),
    );
    const [oldKey] = app.storage.keys();
    const update = postForm(
      { title: "T2", status: "draft", lock_version: "0" },
      { cover: [png("new.png")], photos: [png("added.png")] },
    );
    const { response } = await app.submit(ADA, "/posts/1", update);
    expect(response.status).toBe(303);
    const [post] = await app.rows("posts");
    expect(post).toMatchObject({ title: "T2", cover_filename: "new.png", lock_version: 1 });
    expect(app.storage.keys()).not.toContain(oldKey);
    expect(app.storage.keys()).toHaveLength(2);
  });
});

describe("configuration", () => {
  it("refuses to build the routes of a model with attachments but no storage", async () => {
    const { database } = await setUpApp();
    expect(() =>
      jsonRecordRoutes({
        model: postModel,
        store: new SqlRecordStore(database, postModel),
        authenticate: testAuthentication,
      }),
    ).toThrow("model post has attachments: pass an object storage");
    const comments = jsonRecordRoutes({
      model: commentModel,
      store: new SqlRecordStore(database, commentModel),
      authenticate: testAuthentication,
    });
    expect(comments.map((route) => `${route.method} ${route.path}`)).toEqual([
      "GET /api/comments",
      "POST /api/comments",
      "GET /api/comments/:id",
      "PATCH /api/comments/:id",
      "DELETE /api/comments/:id",
    ]);
  });
});
