import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
  r2Buckets: ["FILES", "SWEPT", "ROUTED"],
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
    expect(await storage.get(key)).toEqual({
      bytes: new Uint8Array([0, 1, 2, 255]),
      contentType: "image/png",
    });
    await storage.put(key, new Uint8Array([9]), "text/plain");
    expect(await storage.get(key)).toEqual({
      bytes: new Uint8Array([9]),
      contentType: "text/plain",
    });
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key);
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

describe("R2ObjectStorage", () => {
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
