// Files a crash leaves behind, on real files in a temporary folder: `*.partial` uploads are
// removed when the storage is opened, and objects no row references are swept after a grace.
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PARTIAL_GRACE_MS, FilesystemObjectStorage } from "../src/filesystem-storage.js";
import {
  DEFAULT_SWEEP_GRACE_MS,
  newStorageKey,
  storedFileCleanups,
  sweepUnreferencedObjects,
} from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "tessera-sweep-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function newFolder(): string {
  return join(root, newStorageKey());
}

/** Sets a file's modification time `ageMs` before now. */
function age(path: string, ageMs: number): void {
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
}

/** Stores an object through the storage, then ages its files. */
async function storedObject(storage: FilesystemObjectStorage, folder: string, ageMs: number) {
  const key = newStorageKey();
  await storage.put(key, new Uint8Array([1, 2, 3]), "image/png");
  age(join(folder, key), ageMs);
  age(join(folder, `${key}.type`), ageMs);
  return key;
}

/** A partial upload as a process killed mid-write leaves it. */
function partialFile(folder: string, ageMs: number): string {
  const name = `${newStorageKey()}.${newStorageKey()}.partial`;
  writeFileSync(join(folder, name), "half a fi");
  age(join(folder, name), ageMs);
  return name;
}

const filesIn = (folder: string) => readdirSync(folder).sort();

describe("FilesystemObjectStorage.open", () => {
  it("removes partial uploads a crash left, keeping stored objects and live uploads", async () => {
    const folder = newFolder();
    const first = await FilesystemObjectStorage.open(folder);
    const kept = await storedObject(first, folder, 2 * HOUR);
    const abandoned = [partialFile(folder, 2 * MINUTE), partialFile(folder, 3 * HOUR)];
    // Another process sharing the folder may be writing this one right now.
    const live = partialFile(folder, 1000);
    expect(filesIn(folder)).toHaveLength(5);

    const reopened = await FilesystemObjectStorage.open(folder);
    expect(filesIn(folder)).toEqual([kept, `${kept}.type`, live].sort());
    for (const name of abandoned) expect(existsSync(join(folder, name))).toBe(false);
    expect(await reopened.get(kept)).toMatchObject({
      bytes: new Uint8Array([1, 2, 3]),
      contentType: "image/png",
    });
  });

  it("waits a minute by default before calling a partial upload abandoned", () => {
    expect(DEFAULT_PARTIAL_GRACE_MS).toBe(MINUTE);
  });

  it("takes a shorter grace, and creates a missing folder", async () => {
    const folder = newFolder();
    expect(existsSync(folder)).toBe(false);
    await FilesystemObjectStorage.open(folder);
    expect(filesIn(folder)).toEqual([]);
    partialFile(folder, 1000);
    await FilesystemObjectStorage.open(folder, { partialGraceMs: 0 });
    expect(filesIn(folder)).toEqual([]);
  });
});

describe("FilesystemObjectStorage.list", () => {
  it("lists each object once with its last write, sidecars without bytes too, nothing else", async () => {
    const folder = newFolder();
    const storage = await FilesystemObjectStorage.open(folder);
    const old = await storedObject(storage, folder, 2 * HOUR);
    const fresh = await storedObject(storage, folder, 0);
    // A crash between writing the content type and renaming the bytes leaves a lone sidecar.
    const sidecarOnly = newStorageKey();
    writeFileSync(join(folder, `${sidecarOnly}.type`), "image/png");
    age(join(folder, `${sidecarOnly}.type`), 3 * HOUR);
    partialFile(folder, 1000);
    writeFileSync(join(folder, ".DS_Store"), "");
    writeFileSync(join(folder, "notes.txt"), "");

    const listed = await storage.list();
    const byKey = new Map(listed.map((entry) => [entry.key, entry.modifiedAt]));
    expect([...byKey.keys()].sort()).toEqual([old, fresh, sidecarOnly].sort());
    expect(listed).toHaveLength(3);
    expect(Date.now() - byKey.get(old)!).toBeGreaterThanOrEqual(2 * HOUR - 1000);
    expect(Date.now() - byKey.get(fresh)!).toBeLessThan(MINUTE);
    expect(Date.now() - byKey.get(sidecarOnly)!).toBeGreaterThanOrEqual(3 * HOUR - 1000);
  });

  it("lists nothing for a folder that does not exist yet", async () => {
    expect(await new FilesystemObjectStorage(newFolder()).list()).toEqual([]);
  });
});

describe("sweepUnreferencedObjects", () => {
  it("deletes objects no row references once they are older than the grace", async () => {
    const folder = newFolder();
    const storage = await FilesystemObjectStorage.open(folder);
    const referenced = await storedObject(storage, folder, 5 * HOUR);
    const orphan = await storedObject(storage, folder, 2 * HOUR);
    // Stored a moment ago: its row may not be written yet.
    const young = await storedObject(storage, folder, 10 * MINUTE);
    const sidecarOnly = newStorageKey();
    writeFileSync(join(folder, `${sidecarOnly}.type`), "image/png");
    age(join(folder, `${sidecarOnly}.type`), 2 * HOUR);

    const deleted = await sweepUnreferencedObjects(storage, new Set([referenced]));
    expect(deleted.sort()).toEqual([orphan, sidecarOnly].sort());
    expect(filesIn(folder)).toEqual(
      [referenced, `${referenced}.type`, young, `${young}.type`].sort(),
    );
    expect(await storage.get(referenced)).toBeDefined();
    expect(await sweepUnreferencedObjects(storage, new Set([referenced]))).toEqual([]);
  });

  it("waits an hour by default, and takes another grace and clock", async () => {
    expect(DEFAULT_SWEEP_GRACE_MS).toBe(HOUR);
    const folder = newFolder();
    const storage = await FilesystemObjectStorage.open(folder);
    const young = await storedObject(storage, folder, 10 * MINUTE);
    expect(await sweepUnreferencedObjects(storage, new Set())).toEqual([]);
    expect(await sweepUnreferencedObjects(storage, new Set(), { now: Date.now() + HOUR })).toEqual([
      young,
    ]);
    const next = await storedObject(storage, folder, 10 * MINUTE);
    expect(await sweepUnreferencedObjects(storage, new Set(), { olderThanMs: 5 * MINUTE })).toEqual(
      [next],
    );
    expect(filesIn(folder)).toEqual([]);
  });
});

describe("storedFileCleanups", () => {
  it("is one task that sweeps at its run's time, reading the referenced keys at each run", async () => {
    const folder = newFolder();
    const storage = await FilesystemObjectStorage.open(folder);
    const referenced = await storedObject(storage, folder, 2 * HOUR);
    const orphan = await storedObject(storage, folder, 2 * HOUR);
    const young = await storedObject(storage, folder, 10 * MINUTE);
    let keys = new Set([referenced]);
    const tasks = storedFileCleanups(storage, async () => keys);
    expect(tasks.map((task) => task.name)).toEqual(["unreferenced-stored-files"]);
    expect(await tasks[0]!.run(Date.now())).toEqual({ removed: 1 });
    expect(filesIn(folder)).toEqual(
      [referenced, `${referenced}.type`, young, `${young}.type`].sort(),
    );
    keys = new Set();
    expect(await tasks[0]!.run(Date.now() + HOUR)).toEqual({ removed: 2 });
    expect(filesIn(folder)).toEqual([]);
    expect(await storage.get(orphan)).toBeUndefined();
  });

  it("takes another grace", async () => {
    const folder = newFolder();
    const storage = await FilesystemObjectStorage.open(folder);
    await storedObject(storage, folder, 10 * MINUTE);
    const [task] = storedFileCleanups(storage, async () => new Set(), { olderThanMs: 5 * MINUTE });
    expect(await task!.run(Date.now())).toEqual({ removed: 1 });
  });
});
