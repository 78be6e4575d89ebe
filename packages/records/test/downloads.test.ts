// Conditional and ranged downloads (RFC 9110): the strong ETag, If-None-Match → 304,
// Range → 206 or 416, If-Range and HEAD, through the JSON and HTML routes, on every object
// store: memory, filesystem, R2 (workerd through miniflare), and a store that has only
// put/get/delete (no stat, no getRange, no version), as a third-party store may be.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { FilesystemObjectStorage } from "../src/filesystem-storage.js";
import {
  MemoryObjectStorage,
  newStorageKey,
  type ObjectStorage,
  type R2Bucket,
  R2ObjectStorage,
} from "../src/index.js";
import { ADA, BOB, envelope, fileForm, postBody, setUpApp } from "./fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-downloads-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const worker = new Miniflare({
  modules: true,
  script: "export default { fetch: () => new Response() }",
  compatibilityDate: "2026-07-01",
  r2Buckets: ["FILES"],
});
afterAll(() => worker.dispose());
const bucket = (await worker.getR2Bucket("FILES")) as unknown as R2Bucket;

/** A store written before stat and getRange existed: whole objects only, and no version. */
function plainStorage(): ObjectStorage {
  const inner = new MemoryObjectStorage();
  return {
    put: (key, bytes, type) => inner.put(key, bytes, type),
    get: async (key) => {
      const object = await inner.get(key);
      return object && { bytes: object.bytes, contentType: object.contentType };
    },
    delete: (key) => inner.delete(key),
  };
}

const STORES: Array<[string, () => ObjectStorage]> = [
  ["memory", () => new MemoryObjectStorage()],
  ["filesystem", () => new FilesystemObjectStorage(join(folder, newStorageKey()))],
  ["R2", () => new R2ObjectStorage(bucket)],
  ["put/get/delete only", plainStorage],
];

const TEXT = "0123456789abcdef"; // 16 bytes: each byte names its position
const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;

/** A post of Ada's with `TEXT` as its cover and as its first photo, in `storage`. */
async function withFiles(storage: ObjectStorage) {
  const app = await setUpApp({ storage });
  expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
  const form = () => fileForm(TEXT, "digits.txt", "text/plain");
  expect((await app.api(ADA, "PUT", "/api/posts/1/cover", { body: form() })).status).toBe(200);
  expect((await app.api(ADA, "POST", "/api/posts/1/photos", { body: form() })).status).toBe(201);
  const get = (headers: Record<string, string> = {}, path = "/api/posts/1/cover", method = "GET") =>
    app.api(ADA, method, path, { headers });
  const etag = (await get()).headers.get("etag")!;
  return { app, get, etag, storage };
}

describe.each(STORES)("downloads from %s storage", (_name, makeStorage) => {
  it("carry a strong ETag and Accept-Ranges, and keep every other header", async () => {
    const { get, etag } = await withFiles(makeStorage());
    expect(etag).toMatch(STRONG_TAG);
    for (const path of ["/api/posts/1/cover", "/api/posts/1/photos/1"]) {
      const response = await get({}, path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(TEXT);
      expect(Object.fromEntries(response.headers)).toEqual({
        "content-type": "text/plain",
        "content-length": "16",
        "content-disposition": `attachment; filename="digits.txt"; filename*=UTF-8''digits.txt`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, no-cache",
        etag: expect.stringMatching(STRONG_TAG),
        "accept-ranges": "bytes",
      });
    }
    expect((await get()).headers.get("etag")).toBe(etag);
  });

  it("change the ETag with the file: a new upload of the same bytes is a new tag", async () => {
    const { app, get, etag } = await withFiles(makeStorage());
    const again = fileForm(TEXT, "digits.txt", "text/plain");
    expect((await app.api(ADA, "PUT", "/api/posts/1/cover", { body: again })).status).toBe(200);
    const renewed = (await get()).headers.get("etag");
    expect(renewed).toMatch(STRONG_TAG);
    expect(renewed).not.toBe(etag);
    expect((await get({ "If-None-Match": etag })).status).toBe(200);
    // The photo is another file: another tag.
    expect((await get({}, "/api/posts/1/photos/1")).headers.get("etag")).not.toBe(renewed);
  });

  it("change the ETag when other bytes of the same size are put under the same key", async () => {
    const { app, get, etag, storage } = await withFiles(makeStorage());
    // Only the store's version can tell: a store without one is documented not to.
    if (!storage.stat) return;
    const post = (await (await app.api(ADA, "GET", "/api/posts/1")).json()) as {
      cover_key: string;
    };
    await storage.put(post.cover_key, new TextEncoder().encode("fedcba9876543210"), "text/plain");
    const changed = await get({ "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe("fedcba9876543210");
    expect(changed.headers.get("etag")).toMatch(STRONG_TAG);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect((await get({ Range: "bytes=0-1", "If-Range": etag })).status).toBe(200);
  });

  it("answer 304 with the ETag and no body when If-None-Match matches (weakly)", async () => {
    const { get, etag } = await withFiles(makeStorage());
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `"a",,  W/${etag} ,`, "*"]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await get({ "If-None-Match": header }, "/api/posts/1/cover", method);
        expect(response.status, `${method} ${header}`).toBe(304);
        expect(response.headers.get("etag")).toBe(etag);
        expect(response.headers.get("cache-control")).toBe("private, no-cache");
        expect(response.headers.get("content-length")).toBeNull();
        expect(await response.text()).toBe("");
      }
    }
  });

  it("send the file when If-None-Match names another version or cannot be read", async () => {
    const { get, etag } = await withFiles(makeStorage());
    const bare = etag.slice(1, -1);
    for (const header of ['"other"', `"${bare}x"`, bare, `${etag} ${etag}`, `W/ ${etag}`, ""]) {
      const response = await get({ "If-None-Match": header });
      expect(response.status, header).toBe(200);
      expect(await response.text()).toBe(TEXT);
      expect(response.headers.get("etag")).toBe(etag);
    }
  });

  it.each([
    ["bytes=2-4", 2, 4],
    ["bytes=10-", 10, 15],
    ["bytes=-3", 13, 15],
    ["bytes=0-999", 0, 15],
    ["bytes=-100", 0, 15],
    ["bytes=15-15", 15, 15],
    ["Bytes=0-0", 0, 0],
    ["bytes= 4-5 ,", 4, 5],
    [`bytes=3-${"9".repeat(40)}`, 3, 15],
  ])("answer %j with 206 and the part", async (range, first, last) => {
    const { get } = await withFiles(makeStorage());
    for (const path of ["/api/posts/1/cover", "/api/posts/1/photos/1"]) {
      const etag = (await get({}, path)).headers.get("etag");
      const response = await get({ Range: range }, path);
      expect(response.status).toBe(206);
      expect(await response.text()).toBe(TEXT.slice(first, last + 1));
      expect(response.headers.get("content-range")).toBe(`bytes ${first}-${last}/16`);
      expect(response.headers.get("content-length")).toBe(String(last - first + 1));
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("content-type")).toBe("text/plain");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it.each(["bytes=16-", "bytes=16-20", `bytes=${"9".repeat(40)}-`, "bytes=-0"])(
    "answer %j with 416 and Content-Range: bytes */16",
    async (range) => {
      const { get } = await withFiles(makeStorage());
      const response = await get({ Range: range });
      expect(response.status).toBe(416);
      expect(response.headers.get("content-range")).toBe("bytes */16");
      expect(await envelope(response)).toEqual({
        error: { code: "range_not_satisfiable", message: "Range not satisfiable", status: 416 },
      });
    },
  );

  it.each([
    "bytes=5-2",
    "bytes=abc",
    "bytes=1-2-3",
    "bytes 0-1",
    "bytes = 0-1",
    "items=0-1",
    "bytes=",
    "bytes=,",
    "bytes=0x1-2",
    "bytes=+1-2",
    "=0-1",
    // Several ranges: served whole by choice (RFC 9110 lets a server ignore Range).
    "bytes=0-1,4-5",
    "bytes=0-1,20-30",
    "bytes=20-,30-",
  ])("answer %j with the whole file (200)", async (range) => {
    const { get, etag } = await withFiles(makeStorage());
    const response = await get({ Range: range });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);
    expect(response.headers.get("content-range")).toBeNull();
    expect(response.headers.get("etag")).toBe(etag);
  });

  it("honour a Range under If-Range only for the current strong ETag", async () => {
    const { get, etag } = await withFiles(makeStorage());
    const part = await get({ Range: "bytes=1-2", "If-Range": etag });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("12");
    for (const ifRange of [
      '"old"',
      `W/${etag}`,
      "Tue, 01 Jul 2025 00:00:00 GMT",
      `${etag}, ${etag}`,
    ]) {
      const whole = await get({ Range: "bytes=1-2", "If-Range": ifRange });
      expect(whole.status, ifRange).toBe(200);
      expect(await whole.text()).toBe(TEXT);
      expect(whole.headers.get("etag")).toBe(etag);
    }
    // An unsatisfiable range of another version is not refused either: the file has changed.
    expect((await get({ Range: "bytes=99-", "If-Range": '"old"' })).status).toBe(200);
  });

  it("answer HEAD with the whole file's headers and no body, whatever the Range", async () => {
    const { get, etag } = await withFiles(makeStorage());
    for (const headers of [{}, { Range: "bytes=0-1" }, { Range: "bytes=99-" }]) {
      const response = await get(headers, "/api/posts/1/cover", "HEAD");
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("");
      expect(response.headers.get("content-length")).toBe("16");
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      expect(response.headers.get("content-range")).toBeNull();
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; /);
    }
  });

  it("stay owner-scoped: another user's file is a 404 whatever the conditions", async () => {
    const { app, etag } = await withFiles(makeStorage());
    for (const headers of [{ "If-None-Match": etag }, { Range: "bytes=0-1" }, {}]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await app.api(BOB, method, "/api/posts/1/cover", { headers });
        expect(response.status).toBe(404);
      }
    }
  });

  it("serve ranges and 304 on the HTML download routes too; a 416 there is a page", async () => {
    const { app, etag } = await withFiles(makeStorage());
    for (const path of ["/posts/1/cover", "/posts/1/photos/1"]) {
      const part = await app.page(ADA, "GET", path, { headers: { Range: "bytes=-2" } });
      expect(part.response.status).toBe(206);
      expect(part.html).toBe("ef");
      expect(part.response.headers.get("content-range")).toBe("bytes 14-15/16");
      const tag = part.response.headers.get("etag")!;
      if (path === "/posts/1/cover") expect(tag).toBe(etag);
      expect(tag).toMatch(STRONG_TAG);
      const fresh = await app.page(ADA, "GET", path, {
        headers: { "If-None-Match": tag },
      });
      expect(fresh.response.status).toBe(304);
      const refused = await app.page(ADA, "GET", path, { headers: { Range: "bytes=16-" } });
      expect(refused.response.status).toBe(416);
      expect(refused.response.headers.get("content-range")).toBe("bytes */16");
      expect(refused.response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(refused.html).toContain("The requested range is outside the file.");
    }
  });
});

describe("a download whose object changes between its two reads", () => {
  it("is sent whole with the new version's tag, never as a part of another version", async () => {
    const inner = new MemoryObjectStorage();
    // `stat` measures an older version than the one `getRange` then reads.
    const racing: ObjectStorage = {
      put: (key, bytes, type) => inner.put(key, bytes, type),
      get: (key) => inner.get(key),
      delete: (key) => inner.delete(key),
      stat: async (key) => {
        const info = await inner.stat(key);
        return info && { ...info, version: "older" };
      },
      getRange: (key, range) => inner.getRange(key, range),
    };
    const { get } = await withFiles(racing);
    const response = await get({ Range: "bytes=0-1" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);
    const current = await get();
    expect(response.headers.get("etag")).toBe(current.headers.get("etag"));
  });
});

describe("HEAD and conditional GETs on a store with stat", () => {
  it("read no bytes for a HEAD, a 304 or a 416, and only the part for a 206", async () => {
    const inner = new MemoryObjectStorage();
    const reads: string[] = [];
    const counted: ObjectStorage = {
      put: (key, bytes, type) => inner.put(key, bytes, type),
      delete: (key) => inner.delete(key),
      get: (key) => {
        reads.push("get");
        return inner.get(key);
      },
      stat: (key) => inner.stat(key),
      getRange: (key, range) => {
        reads.push(`range ${range.offset}+${range.length}`);
        return inner.getRange(key, range);
      },
    };
    const { get, etag } = await withFiles(counted);
    reads.length = 0;
    await get({}, "/api/posts/1/cover", "HEAD");
    await get({ "If-None-Match": etag });
    await get({ Range: "bytes=99-" });
    expect(reads).toEqual([]);
    await get({ Range: "bytes=3-4" });
    expect(reads).toEqual(["range 3+2"]);
  });
});
