import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FilesystemObjectStorage } from "../src/filesystem-storage.js";
import {
  isStorageKey,
  MemoryObjectStorage,
  newStorageKey,
  type ObjectStorage,
} from "../src/index.js";
import { ADA, fileForm, postBody, setUpApp } from "./fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-storage-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

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
