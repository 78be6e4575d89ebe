// The attachment routes of `posts` over real HTTP: the single `cover` (PUT, GET, DELETE) and
// the multi-file `photos` (POST, GET, DELETE), the size and type rules, hostile filenames, and
// the files on disk in UPLOADS_PATH, which must follow the rows that hold them.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let folder: string;
let uploads: string;
let token: string;
let postId: number;

beforeAll(async () => {
  // The uploads folder sits alone inside a folder of its own, so a file written outside it by
  // a path in a filename would show up beside it.
  folder = mkdtempSync(join(tmpdir(), "tessera-attachments-"));
  uploads = join(folder, "uploads");
  server = await startTestServer({ TRUST_PROXY: "1", UPLOADS_PATH: uploads });
  token = await signUp();
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(async () => {
  postId = await newPost();
});

const MB = 1024 * 1024;
const KEY = /^[A-Za-z0-9_-]{43}$/;
const ALLOWED =
  "has an unsupported type (allowed: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain)";
const TOO_LARGE = "is too large (maximum is 10 MB)";
const NOT_FOUND = {
  status: 404,
  body: { error: { code: "not_found", message: "Not found", status: 404 } },
};
const invalid = (fields: Record<string, string[]>) => ({
  status: 422,
  body: { error: { code: "validation_failed", message: "Validation failed", status: 422, fields } },
});

async function signUp(): Promise<string> {
  const client = newClientAddress();
  const credentials = JSON.stringify({
    email: `files.${client}@example.com`,
    password: "correct horse battery",
  });
  const headers = { "content-type": "application/json", "x-forwarded-for": client };
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: "POST",
    headers,
    body: credentials,
  });
  expect(signup.status).toBe(201);
  const issued = await fetch(`${server.url}/api/auth/token`, {
    method: "POST",
    headers,
    body: credentials,
  });
  return ((await issued.json()) as { token: string }).token;
}

async function call(
  method: string,
  path: string,
  body?: BodyInit,
  headers: Record<string, string> = {},
  bearer = token,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...headers },
    body: body ?? null,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isJson = response.headers.get("content-type") === "application/json";
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    body: isJson && bytes.length > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : undefined,
  };
}

async function newPost(): Promise<number> {
  const response = await call(
    "POST",
    "/api/posts",
    JSON.stringify({ title: "With files", status: "draft" }),
    { "content-type": "application/json" },
  );
  expect(response.status).toBe(201);
  return response.body.id;
}

/** A multipart body with one file in part `file`. */
function fileForm(name: string, type: string, bytes: Uint8Array | string): FormData {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type }), name);
  return form;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const putCover = (form: BodyInit, id = postId) => call("PUT", `/api/posts/${id}/cover`, form);
const addPhoto = (form: BodyInit, id = postId) => call("POST", `/api/posts/${id}/photos`, form);
const postRow = async (id = postId) =>
  (await server.query<Record<string, unknown>>("SELECT * FROM posts WHERE id = ?", id))[0]!;
const photoRows = (id = postId) =>
  server.query<Record<string, unknown>>("SELECT * FROM post_photo WHERE post_id = ?", id);
const filesOnDisk = () => (existsSync(uploads) ? readdirSync(uploads).sort() : []);
/** The two files an object leaves in the folder: the bytes, and the content type beside them. */
const objectFiles = (key: string) => [key, `${key}.type`];

describe("PUT, GET and DELETE /api/posts/{id}/cover", () => {
  it("stores an upload under a random key, answers the record, and serves it back", async () => {
    const before = filesOnDisk();
    const uploaded = await putCover(fileForm("cover.png", "image/png", PNG));
    expect(uploaded.status).toBe(200);
    const key = uploaded.body.cover_key as string;
    expect(key).toMatch(KEY);
    expect(uploaded.body).toMatchObject({
      id: postId,
      title: "With files",
      cover_filename: "cover.png",
      cover_content_type: "image/png",
      cover_size: PNG.byteLength,
      lock_version: 1,
    });
    expect(await postRow()).toMatchObject({ cover_key: key, cover_size: PNG.byteLength });
    expect(filesOnDisk()).toEqual([...before, ...objectFiles(key)].sort());
    expect(new Uint8Array(readFileSync(join(uploads, key)))).toEqual(PNG);

    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect(download.status).toBe(200);
    expect(download.bytes).toEqual(PNG);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(download.headers.get("content-length")).toBe(String(PNG.byteLength));
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="cover.png"; filename*=UTF-8''cover.png`,
    );
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(download.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("keeps the content type sent at upload, without its parameters or case", async () => {
    const uploaded = await putCover(fileForm("notes.txt", "Text/Plain; charset=utf-8", "notes"));
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.cover_content_type).toBe("text/plain");
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect(download.headers.get("content-type")).toBe("text/plain");
    expect(new TextDecoder().decode(download.bytes)).toBe("notes");
  });

  it("sends a Content-Disposition no filename can break out of", async () => {
    const name = 'résumé "final"; x=1.pdf';
    const uploaded = await putCover(fileForm(name, "application/pdf", "%PDF-1.7"));
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.cover_filename).toBe(name);
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ _final_; x=1.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%3B%20x%3D1.pdf`,
    );
  });

  it("replaces a file, deleting the old object from disk", async () => {
    const first = await putCover(fileForm("one.png", "image/png", PNG));
    const second = await putCover(fileForm("two.gif", "image/gif", "GIF89a"));
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ cover_filename: "two.gif", lock_version: 2 });
    const files = filesOnDisk();
    expect(files).not.toContain(first.body.cover_key);
    expect(files).not.toContain(`${first.body.cover_key}.type`);
    expect(files).toContain(second.body.cover_key);
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect(new TextDecoder().decode(download.bytes)).toBe("GIF89a");
  });

  it("leaves exactly the object the row holds after simultaneous uploads", async () => {
    const before = filesOnDisk();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => putCover(fileForm(`${n}.txt`, "text/plain", `v${n}`))),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    const key = (await postRow()).cover_key as string;
    expect(filesOnDisk()).toEqual([...before, ...objectFiles(key)].sort());
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect(new TextDecoder().decode(download.bytes)).toBe(
      `v${((await postRow()).cover_filename as string).split(".")[0]}`,
    );
  });

  it("deletes the file: 204, the four columns cleared, the object gone; then 404", async () => {
    const uploaded = await putCover(fileForm("cover.webp", "image/webp", "RIFF"));
    const key = uploaded.body.cover_key as string;
    const deleted = await call("DELETE", `/api/posts/${postId}/cover`);
    expect(deleted.status).toBe(204);
    expect(deleted.bytes.length).toBe(0);
    expect(await postRow()).toMatchObject({
      cover_key: null,
      cover_filename: null,
      cover_content_type: null,
      cover_size: null,
    });
    expect(filesOnDisk()).not.toContain(key);
    expect(filesOnDisk()).not.toContain(`${key}.type`);
    const again = await call("DELETE", `/api/posts/${postId}/cover`);
    expect({ status: again.status, body: again.body }).toEqual(NOT_FOUND);
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect({ status: download.status, body: download.body }).toEqual(NOT_FOUND);
  });

  it("answers 404 for a post with no cover yet", async () => {
    const download = await call("GET", `/api/posts/${postId}/cover`);
    expect({ status: download.status, body: download.body }).toEqual(NOT_FOUND);
  });
});

describe("the upload rules", () => {
  const refusedCover = async (form: BodyInit, fields: Record<string, string[]>) => {
    const before = { files: filesOnDisk(), row: await postRow() };
    const answer = await putCover(form);
    expect({ status: answer.status, body: answer.body }).toEqual(invalid(fields));
    expect(filesOnDisk()).toEqual(before.files);
    expect(await postRow()).toEqual(before.row);
  };

  it("takes a file of exactly 10 MB", async () => {
    const answer = await putCover(fileForm("big.pdf", "application/pdf", new Uint8Array(10 * MB)));
    expect(answer.status).toBe(200);
    expect(answer.body.cover_size).toBe(10 * MB);
  });

  it("refuses a file one byte over 10 MB", async () => {
    await refusedCover(fileForm("big.png", "image/png", new Uint8Array(10 * MB + 1)), {
      cover: [TOO_LARGE],
    });
  });

  it("refuses a body well over the limit before reading it all", async () => {
    await refusedCover(fileForm("huge.png", "image/png", new Uint8Array(12 * MB)), {
      cover: [TOO_LARGE],
    });
  });

  it("refuses an oversized body by its Content-Length, whatever it holds", async () => {
    const before = filesOnDisk();
    const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/api/posts/${postId}/cover`,
        {
          method: "PUT",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "multipart/form-data; boundary=x",
            "content-length": String(11 * MB),
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => {
            request.destroy();
            resolve({ status: response.statusCode!, body: JSON.parse(text) });
          });
        },
      );
      request.on("error", reject);
      // Only the first bytes are sent: the answer must not wait for the other 11 MB.
      request.write("--x\r\n");
    });
    expect(answer).toEqual(invalid({ cover: [TOO_LARGE] }));
    expect(filesOnDisk()).toEqual(before);
  });

  it.each([
    ["text/html", "page.html"],
    ["image/svg+xml", "image.svg"],
    ["application/octet-stream", "program.exe"],
    ["", "no-type"],
  ])("refuses the type %j", async (type, name) => {
    await refusedCover(fileForm(name, type, "<script>alert(1)</script>"), { cover: [ALLOWED] });
  });

  it("gives both messages to a file too large and of the wrong type", async () => {
    await refusedCover(fileForm("big.html", "text/html", new Uint8Array(10 * MB + 1)), {
      cover: [TOO_LARGE, ALLOWED],
    });
  });

  it("answers can't be blank when part `file` holds no file", async () => {
    const form = new FormData();
    form.append("file", "just text");
    form.append("other", new Blob(["x"], { type: "text/plain" }), "x.txt");
    await refusedCover(form, { cover: ["can't be blank"] });
  });

  it("refuses a body that is not multipart with a 400", async () => {
    const answer = await call("PUT", `/api/posts/${postId}/cover`, JSON.stringify({}), {
      "content-type": "application/json",
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: "Failed to deserialize form body: expected `Content-Type: multipart/form-data`",
          status: 400,
        },
      },
    });
  });

  it("applies the same rules to photos, keyed on the field's name", async () => {
    const before = filesOnDisk();
    const answer = await addPhoto(fileForm("page.html", "text/html", "<p>"));
    expect({ status: answer.status, body: answer.body }).toEqual(invalid({ photos: [ALLOWED] }));
    const large = await addPhoto(fileForm("big.jpg", "image/jpeg", new Uint8Array(10 * MB + 1)));
    expect({ status: large.status, body: large.body }).toEqual(invalid({ photos: [TOO_LARGE] }));
    expect(await photoRows()).toEqual([]);
    expect(filesOnDisk()).toEqual(before);
  });
});

describe("hostile filenames", () => {
  it.each([
    ["../../etc/passwd", "passwd"],
    ["..\\..\\windows\\win.ini", "win.ini"],
    ["C:\\fakepath\\photo.png", "photo.png"],
    ["/absolute/path/x.txt", "x.txt"],
    ["..", "file"],
    ["line\r\nbreak.txt", "linebreak.txt"],
  ])("never use %j as a path: kept as %j, stored under a random key", async (name, kept) => {
    const answer = await addPhoto(fileForm(name, "text/plain", "root:x:0:0"));
    expect(answer.status).toBe(201);
    expect(answer.body.photo_filename).toBe(kept);
    expect(answer.body.photo_key).toMatch(KEY);
    // Nothing but keys and their sidecars in the uploads folder, nothing beside it.
    for (const file of filesOnDisk()) expect(file).toMatch(/^[A-Za-z0-9_-]{43}(\.type)?$/);
    expect(readdirSync(folder)).toEqual(["uploads"]);
    const download = await call("GET", `/api/posts/${postId}/photos/${answer.body.id}`);
    expect(new TextDecoder().decode(download.bytes)).toBe("root:x:0:0");
    expect(download.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="${kept.replace(".", "\\.")}"; `),
    );
  });
});

describe("POST, GET and DELETE /api/posts/{id}/photos", () => {
  it("adds files (201 and the file), lists them oldest first, and serves each one", async () => {
    const first = await addPhoto(fileForm("a.png", "image/png", PNG));
    const second = await addPhoto(fileForm("b.txt", "text/plain", "second"));
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      photo_key: expect.stringMatching(KEY),
      photo_filename: "a.png",
      photo_content_type: "image/png",
      photo_size: PNG.byteLength,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(second.status).toBe(201);
    for (const key of [first.body.photo_key, second.body.photo_key]) {
      expect(filesOnDisk()).toEqual(expect.arrayContaining(objectFiles(key)));
    }

    const list = await call("GET", `/api/posts/${postId}/photos`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([first.body, second.body]);
    expect((await photoRows()).map((row) => row.photo_filename)).toEqual(["a.png", "b.txt"]);

    const download = await call("GET", `/api/posts/${postId}/photos/${second.body.id}`);
    expect(download.status).toBe(200);
    expect(new TextDecoder().decode(download.bytes)).toBe("second");
    expect(download.headers.get("content-type")).toBe("text/plain");
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="b.txt"; filename*=UTF-8''b.txt`,
    );
    // Photos are not part of the record's JSON.
    expect((await call("GET", `/api/posts/${postId}`)).body).not.toHaveProperty("photos");
  });

  it("deletes one file: 204, its row and its object gone, the others kept; then 404", async () => {
    const kept = await addPhoto(fileForm("keep.png", "image/png", PNG));
    const doomed = await addPhoto(fileForm("drop.png", "image/png", PNG));
    const deleted = await call("DELETE", `/api/posts/${postId}/photos/${doomed.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await photoRows()).map((row) => row.id)).toEqual([kept.body.id]);
    expect(filesOnDisk()).not.toContain(doomed.body.photo_key);
    expect(filesOnDisk()).toContain(kept.body.photo_key);
    for (const method of ["DELETE", "GET"]) {
      const again = await call(method, `/api/posts/${postId}/photos/${doomed.body.id}`);
      expect({ status: again.status, body: again.body }).toEqual(NOT_FOUND);
    }
  });

  it("answers 404 for a file of another post of the same owner", async () => {
    const photo = await addPhoto(fileForm("here.png", "image/png", PNG));
    const elsewhere = await newPost();
    for (const method of ["GET", "DELETE"]) {
      const answer = await call(method, `/api/posts/${elsewhere}/photos/${photo.body.id}`);
      expect({ status: answer.status, body: answer.body }).toEqual(NOT_FOUND);
    }
    expect((await photoRows()).map((row) => row.id)).toEqual([photo.body.id]);
  });

  it("DELETE on /photos deletes every file: 204, rows and files gone, the post untouched", async () => {
    const photos = [
      await addPhoto(fileForm("1.png", "image/png", PNG)),
      await addPhoto(fileForm("2.txt", "text/plain", "two")),
      await addPhoto(fileForm("3.jpg", "image/jpeg", "jpeg")),
    ];
    const other = await newPost();
    const kept = await addPhoto(fileForm("kept.png", "image/png", PNG), other);
    const before = await postRow();
    for (const photo of photos) {
      expect(filesOnDisk()).toEqual(expect.arrayContaining(objectFiles(photo.body.photo_key)));
    }

    const deleted = await call("DELETE", `/api/posts/${postId}/photos`);
    expect(deleted.status).toBe(204);
    expect(deleted.bytes.length).toBe(0);
    expect(await photoRows()).toEqual([]);
    const left = filesOnDisk();
    for (const photo of photos) {
      expect(left).not.toContain(photo.body.photo_key);
      expect(left).not.toContain(`${photo.body.photo_key}.type`);
    }
    // The post is not written (lock_version and updated_at stay), as for one file.
    expect(await postRow()).toEqual(before);
    expect((await call("GET", `/api/posts/${postId}/photos`)).body).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(objectFiles(kept.body.photo_key)));
    expect((await photoRows(other)).map((row) => row.id)).toEqual([kept.body.id]);

    // Nothing left to delete is still a 204; one file at a time still works.
    expect((await call("DELETE", `/api/posts/${postId}/photos`)).status).toBe(204);
    expect((await call("DELETE", `/api/posts/${other}/photos/${kept.body.id}`)).status).toBe(204);
  });

  it("DELETE on another user's /photos is a 404 and deletes nothing", async () => {
    const photo = await addPhoto(fileForm("mine.png", "image/png", PNG));
    const stranger = await signUp();
    const refused = await call("DELETE", `/api/posts/${postId}/photos`, undefined, {}, stranger);
    expect({ status: refused.status, body: refused.body }).toEqual(NOT_FOUND);
    expect((await photoRows()).map((row) => row.id)).toEqual([photo.body.id]);
    expect(filesOnDisk()).toEqual(expect.arrayContaining(objectFiles(photo.body.photo_key)));
    const missing = await call("DELETE", "/api/posts/999999999/photos");
    expect({ status: missing.status, body: missing.body }).toEqual(NOT_FOUND);
  });

  it("answers 404 for an attachment route of a field that is not one", async () => {
    const answer = await call("GET", `/api/posts/${postId}/title`);
    expect({ status: answer.status, body: answer.body }).toEqual(NOT_FOUND);
  });
});

describe("conditional and ranged downloads", () => {
  const TEXT = "0123456789abcdef";
  const download = (headers: Record<string, string> = {}, method = "GET") =>
    call(method, `/api/posts/${postId}/cover`, undefined, headers);
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it("carry a strong ETag; If-None-Match answers 304 without the file", async () => {
    await putCover(fileForm("digits.txt", "text/plain", TEXT));
    const first = await download();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    expect((await download()).headers.get("etag")).toBe(etag);
    for (const header of [etag, `W/${etag}`, `"older", ${etag}`, "*"]) {
      const fresh = await download({ "if-none-match": header });
      expect(fresh.status).toBe(304);
      expect(fresh.bytes.length).toBe(0);
      expect(fresh.headers.get("etag")).toBe(etag);
    }
    expect((await download({ "if-none-match": '"older"' })).status).toBe(200);

    // A new upload, even of the same bytes, is a new file: a new tag, and the old one is stale.
    await putCover(fileForm("digits.txt", "text/plain", TEXT));
    const renewed = await download({ "if-none-match": etag });
    expect(renewed.status).toBe(200);
    expect(text(renewed.bytes)).toBe(TEXT);
    expect(renewed.headers.get("etag")).not.toBe(etag);
  });

  it("answer one Range with 206 and Content-Range, from the file on disk", async () => {
    await putCover(fileForm("digits.txt", "text/plain", TEXT));
    for (const [range, first, last] of [
      ["bytes=2-5", 2, 5],
      ["bytes=12-", 12, 15],
      ["bytes=-4", 12, 15],
      ["bytes=0-999", 0, 15],
    ] as const) {
      const part = await download({ range });
      expect(part.status).toBe(206);
      expect(text(part.bytes)).toBe(TEXT.slice(first, last + 1));
      expect(part.headers.get("content-range")).toBe(`bytes ${first}-${last}/16`);
      expect(part.headers.get("content-length")).toBe(String(last - first + 1));
      expect(part.headers.get("content-type")).toBe("text/plain");
      expect(part.headers.get("content-disposition")).toMatch(/^attachment; filename="digits.txt"/);
      expect(part.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const photo = await addPhoto(fileForm("photo.txt", "text/plain", TEXT));
    const photoPart = await call("GET", `/api/posts/${postId}/photos/${photo.body.id}`, undefined, {
      range: "bytes=-1",
    });
    expect({ status: photoPart.status, text: text(photoPart.bytes) }).toEqual({
      status: 206,
      text: "f",
    });
  });

  it("answer a range outside the file with 416, and a malformed or multiple one with the file", async () => {
    await putCover(fileForm("digits.txt", "text/plain", TEXT));
    const refused = await download({ range: "bytes=16-" });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 416,
      body: {
        error: { code: "range_not_satisfiable", message: "Range not satisfiable", status: 416 },
      },
    });
    expect(refused.headers.get("content-range")).toBe("bytes */16");
    for (const range of ["bytes=5-2", "bytes=x-y", "lines=0-1", "bytes=0-1,4-5"]) {
      const whole = await download({ range });
      expect({ range, status: whole.status, text: text(whole.bytes) }).toEqual({
        range,
        status: 200,
        text: TEXT,
      });
    }
  });

  it("honour If-Range only for the current ETag, and answer HEAD without the bytes", async () => {
    await putCover(fileForm("digits.txt", "text/plain", TEXT));
    const etag = (await download()).headers.get("etag")!;
    expect((await download({ range: "bytes=0-0", "if-range": etag })).status).toBe(206);
    const changed = await download({ range: "bytes=0-0", "if-range": '"older"' });
    expect({ status: changed.status, text: text(changed.bytes) }).toEqual({
      status: 200,
      text: TEXT,
    });
    const head = await download({}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get("content-length")).toBe("16");
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect((await download({ "if-none-match": etag }, "HEAD")).status).toBe(304);
  });
});

describe("deleting a post", () => {
  it("deletes its photos' rows and files, and its cover's file", async () => {
    const cover = await putCover(fileForm("cover.png", "image/png", PNG));
    const photos = [
      await addPhoto(fileForm("1.png", "image/png", PNG)),
      await addPhoto(fileForm("2.jpg", "image/jpeg", "jpeg")),
    ];
    const keys = [cover.body.cover_key, ...photos.map((photo) => photo.body.photo_key)];
    for (const key of keys) expect(filesOnDisk()).toEqual(expect.arrayContaining(objectFiles(key)));

    const deleted = await call("DELETE", `/api/posts/${postId}`);
    expect(deleted.status).toBe(204);
    expect(await server.query("SELECT id FROM posts WHERE id = ?", postId)).toEqual([]);
    expect(await photoRows()).toEqual([]);
    const left = filesOnDisk();
    for (const key of keys) {
      expect(left).not.toContain(key);
      expect(left).not.toContain(`${key}.type`);
    }
    const listing = await call("GET", `/api/posts/${postId}/photos`);
    expect({ status: listing.status, body: listing.body }).toEqual(NOT_FOUND);
  });

  it("leaves other posts' files in place", async () => {
    const other = await newPost();
    const kept = await addPhoto(fileForm("kept.png", "image/png", PNG), other);
    await addPhoto(fileForm("gone.png", "image/png", PNG));
    expect((await call("DELETE", `/api/posts/${postId}`)).status).toBe(204);
    expect(filesOnDisk()).toEqual(expect.arrayContaining(objectFiles(kept.body.photo_key)));
    const download = await call("GET", `/api/posts/${other}/photos/${kept.body.id}`);
    expect(download.bytes).toEqual(PNG);
  });
});
