import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { FilesystemObjectStorage } from "../src/filesystem-storage.js";
import {
  isStorageKey,
  MemoryObjectStorage,
  newStorageKey,
  type ObjectStorage,
  type R2Bucket,
  R2ObjectStorage,
} from "../src/index.js";
import { ADA, fileForm, postBody, setUpApp } from "./fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-storage-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// R2 as workerd runs it, through miniflare: a bucket of its own for each test that lists.
const worker = new Miniflare({
  modules: true,
  script: "export default { fetch: () => new Response() }",
  compatibilityDate: "2026-07-01",
  r2Buckets: ["FILES", "SWEPT", "ROUTED", "PLAIN"],
});
afterAll(() => worker.dispose());
const bucket = async (name: string) => (await worker.getR2Bucket(name)) as unknown as R2Bucket;
const filesBucket = await bucket("FILES");

const HOSTILE_KEYS = [
  "../escape",
  "a/b",
  "a\\b",
  "..",
  ".",
  "",
  "key.type",
  "x".repeat(129),
  "short",
  "%2e%2e%2fescape__",
];

const utf8 = (text: string) => new TextEncoder().encode(text);

const adapters: Array<[string, () => ObjectStorage]> = [
  ["memory", () => new MemoryObjectStorage()],
  ["filesystem", () => new FilesystemObjectStorage(join(folder, newStorageKey()))],
  ["R2", () => new R2ObjectStorage(filesBucket)],
];

describe.each(adapters)("%s object storage", (_name, make) => {
  it("puts, gets and deletes bytes with their content type", async () => {
    const storage = make();
    const key = newStorageKey();
    expect(await storage.get(key)).toBeUndefined();
    await storage.put(key, new Uint8Array([0, 1, 2, 255]), "image/png");
    expect(await storage.get(key)).toMatchObject({
      bytes: new Uint8Array([0, 1, 2, 255]),
      contentType: "image/png",
    });
    await storage.put(key, new Uint8Array([9]), "text/plain");
    expect(await storage.get(key)).toMatchObject({
      bytes: new Uint8Array([9]),
      contentType: "text/plain",
    });
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key);
  });

  it("measures an object without its bytes, with a version that changes on every put", async () => {
    const storage = make();
    const key = newStorageKey();
    expect(await storage.stat!(key)).toBeUndefined();
    await storage.put(key, utf8("first"), "text/plain");
    const first = await storage.stat!(key);
    expect(first).toEqual({ size: 5, version: expect.any(String) });
    expect((await storage.get(key))?.version).toBe(first!.version);
    expect(await storage.stat!(key)).toEqual(first);
    // Other bytes of the same length under the same key: only the version tells them apart.
    await storage.put(key, utf8("other"), "text/plain");
    const second = await storage.stat!(key);
    expect(second?.size).toBe(5);
    expect(second?.version).not.toBe(first!.version);
    expect((await storage.get(key))?.version).toBe(second!.version);
    await storage.delete(key);
    expect(await storage.stat!(key)).toBeUndefined();
  });

  it("reads a range: only its bytes, cut at the end, with the whole size and the version", async () => {
    const storage = make();
    const key = newStorageKey();
    expect(await storage.getRange!(key, { offset: 0, length: 1 })).toBeUndefined();
    await storage.put(key, utf8("0123456789"), "text/plain");
    const { version } = (await storage.stat!(key))!;
    const part = async (offset: number, length: number) => {
      const read = await storage.getRange!(key, { offset, length });
      return read && { ...read, bytes: new TextDecoder().decode(read.bytes) };
    };
    expect(await part(2, 3)).toEqual({ size: 10, version, bytes: "234" });
    expect(await part(0, 10)).toEqual({ size: 10, version, bytes: "0123456789" });
    expect(await part(8, 50)).toEqual({ size: 10, version, bytes: "89" });
    // Past the end (the object was replaced by a shorter one since it was measured).
    expect(await part(10, 5)).toEqual({ size: 10, version, bytes: "" });
    expect(await part(25, 5)).toEqual({ size: 10, version, bytes: "" });
    await expect(storage.stat!("../escape")).rejects.toThrow(RangeError);
    await expect(storage.getRange!("../escape", { offset: 0, length: 1 })).rejects.toThrow(
      RangeError,
    );
  });

  it("refuses keys that are not random tokens, on every method", async () => {
    const storage = make();
    for (const key of HOSTILE_KEYS) {
      await expect(storage.put(key, new Uint8Array(1), "text/plain")).rejects.toThrow(RangeError);
      await expect(storage.get(key)).rejects.toThrow(RangeError);
      await expect(storage.delete(key)).rejects.toThrow(RangeError);
    }
  });
});

describe("storage keys", () => {
  it("are 43 URL-safe characters, different every time", () => {
    const keys = new Set(Array.from({ length: 100 }, newStorageKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const key of HOSTILE_KEYS) expect(isStorageKey(key)).toBe(false);
  });
});

describe("FilesystemObjectStorage under the record routes", () => {
  it("writes files named by their random key only, inside its folder, and removes them with the record", async () => {
    const root = join(folder, "uploads");
    const app = await setUpApp({ storage: new FilesystemObjectStorage(root) });
    await app.sendJson(ADA, "POST", "/api/posts", postBody());
    const response = await app.api(ADA, "PUT", "/api/posts/1/cover", {
      body: fileForm("on disk", "../../../../tmp/evil.txt", "text/plain"),
    });
    const { cover_key } = (await response.json()) as { cover_key: string };
    expect(readdirSync(root).sort()).toEqual([cover_key, `${cover_key}.type`]);
    expect(readFileSync(join(root, cover_key), "utf8")).toBe("on disk");
    const download = await app.api(ADA, "GET", "/api/posts/1/cover");
    expect(await download.text()).toBe("on disk");
    expect((await app.api(ADA, "DELETE", "/api/posts/1")).status).toBe(204);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("FilesystemObjectStorage ranges", () => {
  it("reads only the asked bytes: a part of a file too large to read whole, also as a 206", async () => {
    const root = join(folder, newStorageKey());
    const storage = new FilesystemObjectStorage(root);
    const app = await setUpApp({ storage });
    await app.sendJson(ADA, "POST", "/api/posts", postBody());
    const uploaded = await app.api(ADA, "PUT", "/api/posts/1/cover", {
      body: fileForm("head", "big.pdf", "application/pdf"),
    });
    const { cover_key: key } = (await uploaded.json()) as { cover_key: string };
    // Grown in place to 3 GiB, sparse (no disk used), with a tail: over the 2 GiB a whole
    // read (readFile) refuses, so only a ranged read can answer.
    const size = 3 * 1024 ** 3;
    const file = await open(join(root, key), "r+");
    await file.truncate(size);
    await file.write(utf8("tail"), 0, 4, size - 4);
    await file.close();
    await expect(storage.get(key)).rejects.toThrow(/2 GiB/);

    expect(await storage.stat(key)).toMatchObject({ size });
    const part = await storage.getRange(key, { offset: size - 4, length: 4 });
    expect(new TextDecoder().decode(part!.bytes)).toBe("tail");
    const head = await storage.getRange(key, { offset: 0, length: 4 });
    expect(new TextDecoder().decode(head!.bytes)).toBe("head");

    const ranged = await app.api(ADA, "GET", "/api/posts/1/cover", {
      headers: { Range: "bytes=-4" },
    });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("tail");
    expect(ranged.headers.get("content-range")).toBe(`bytes ${size - 4}-${size - 1}/${size}`);
    const described = await app.api(ADA, "HEAD", "/api/posts/1/cover");
    expect(described.status).toBe(200);
    expect(described.headers.get("content-length")).toBe(String(size));
  });
});

describe("R2ObjectStorage", () => {
  it("serves ranges from a stand-in bucket without head or ranged reads, cutting them itself", async () => {
    const plain = await bucket("PLAIN");
    // Only what the storage needed before ranges: get(key) of the whole object, no head.
    const stand: R2Bucket = {
      put: (key, value, options) => plain.put(key, value, options),
      get: (key) => plain.get(key),
      delete: (key) => plain.delete(key),
      list: (options) => plain.list(options),
    };
    const storage = new R2ObjectStorage(stand);
    const key = newStorageKey();
    await storage.put(key, utf8("0123456789"), "text/plain");
    const info = await storage.stat(key);
    expect(info).toEqual({ size: 10, version: expect.any(String) });
    const part = await storage.getRange(key, { offset: 3, length: 4 });
    expect({ ...part, bytes: new TextDecoder().decode(part!.bytes) }).toEqual({
      ...info,
      bytes: "3456",
    });
    expect(await storage.stat(newStorageKey())).toBeUndefined();
  });

  it("lists every object named like a key, page by page, and never another object", async () => {
    const swept = await bucket("SWEPT");
    // Pages of two, so three keys and a foreign object take several pages.
    const paged: R2Bucket = {
      put: (key, value, options) => swept.put(key, value, options),
      get: (key) => swept.get(key),
      delete: (key) => swept.delete(key),
      list: (options) => swept.list({ ...options, limit: 2 }),
    };
    const storage = new R2ObjectStorage(paged);
    const keys = [newStorageKey(), newStorageKey(), newStorageKey()];
    const before = Date.now() - 1000;
    for (const key of keys) await storage.put(key, new Uint8Array([1]), "text/plain");
    await swept.put("notes/readme.txt", new Uint8Array([2]), {
      httpMetadata: { contentType: "text/plain" },
    });
    const listed = await storage.list();
    expect(listed.map((entry) => entry.key).sort()).toEqual([...keys].sort());
    for (const entry of listed) {
      expect(entry.modifiedAt).toBeGreaterThanOrEqual(before);
      expect(entry.modifiedAt).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it("stores what the record routes upload, serves it back and removes it with the record", async () => {
    const routed = await bucket("ROUTED");
    const app = await setUpApp({ storage: new R2ObjectStorage(routed) });
    await app.sendJson(ADA, "POST", "/api/posts", postBody());
    const response = await app.api(ADA, "PUT", "/api/posts/1/cover", {
      body: fileForm("in a bucket", "cover.txt", "text/plain"),
    });
    const { cover_key } = (await response.json()) as { cover_key: string };
    const stored = await routed.get(cover_key);
    expect(stored?.httpMetadata?.contentType).toBe("text/plain");
    expect(new TextDecoder().decode(await stored!.arrayBuffer())).toBe("in a bucket");
    expect(await (await app.api(ADA, "GET", "/api/posts/1/cover")).text()).toBe("in a bucket");
    expect((await app.api(ADA, "DELETE", "/api/posts/1")).status).toBe(204);
    expect(await routed.get(cover_key)).toBeNull();
  });
});
