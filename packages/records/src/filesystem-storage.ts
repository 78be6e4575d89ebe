import type { BigIntStats } from "node:fs";
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat as statPath,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { randomToken } from "@tessera/crypto";
import {
  assertStorageKey,
  type ByteRange,
  isStorageKey,
  type StoredObject,
  type StoredObjectInfo,
  type StoredObjectPart,
} from "./object-storage.js";
import type { ListableObjectStorage, StoredObjectEntry } from "./object-sweep.js";

const DEFAULT_CONTENT_TYPE = "application/octet-stream";
const TYPE_SUFFIX = ".type";
const PARTIAL_SUFFIX = ".partial";

/**
 * Default age before a `*.partial` upload counts as abandoned. A live one is written to
 * continuously (and renamed within moments), but another process sharing the folder may be
 * writing one right now, so a fresh one is left alone.
 */
export const DEFAULT_PARTIAL_GRACE_MS = 60_000;

/** Options of {@link FilesystemObjectStorage.open}. */
export interface FilesystemStorageOptions {
  /** Partial uploads last written at least this long ago are removed (default one minute). */
  readonly partialGraceMs?: number | undefined;
}

/**
 * Object storage in a folder (Node only): `<folder>/<key>` holds the bytes and
 * `<folder>/<key>.type` the content type. Keys must be {@link isStorageKey} tokens, which have
 * no separator or dot, so no key can reach outside the folder or collide with a sidecar.
 */
export class FilesystemObjectStorage implements ListableObjectStorage {
  constructor(private readonly folder: string) {}

  /**
   * The storage of `folder`, created when missing, after removing the partial uploads a crash
   * left there (older than `partialGraceMs`). Call it at process start.
   */
  static async open(
    folder: string,
    options: FilesystemStorageOptions = {},
  ): Promise<FilesystemObjectStorage> {
    const storage = new FilesystemObjectStorage(folder);
    await mkdir(folder, { recursive: true });
    await storage.removeAbandonedPartials(options.partialGraceMs ?? DEFAULT_PARTIAL_GRACE_MS);
    return storage;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertStorageKey(key);
    await mkdir(this.folder, { recursive: true });
    await writeFile(this.#path(`${key}.type`), contentType, "utf8");
    // Written aside then renamed, so a reader never sees half a file.
    const partial = this.#path(`${key}.${randomToken()}.partial`);
    await writeFile(partial, bytes);
    await rename(partial, this.#path(key));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertStorageKey(key);
    // Size, version and bytes come from one open file, so they describe the same bytes even
    // when a put renames another file over the key meanwhile.
    const read = await this.#withFile(key, async (file, info) => ({
      info,
      bytes: new Uint8Array(await file.readFile()),
    }));
    if (!read) return undefined;
    const contentType = await readFile(this.#path(`${key}.type`), "utf8").catch(
      (error: unknown) => {
        if (isMissing(error)) return DEFAULT_CONTENT_TYPE;
        throw error;
      },
    );
    return { bytes: read.bytes, contentType, version: read.info.version };
  }

  async stat(key: string): Promise<(StoredObjectInfo & { readonly version: string }) | undefined> {
    assertStorageKey(key);
    try {
      return fileInfo(await statPath(this.#path(key), { bigint: true }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Reads only the range's bytes from the file, however large the file is. */
  async getRange(key: string, range: ByteRange): Promise<StoredObjectPart | undefined> {
    assertStorageKey(key);
    return this.#withFile(key, async (file, info) => {
      const length = Math.max(0, Math.min(range.length, info.size - range.offset));
      const bytes = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await file.read(
          bytes,
          filled,
          length - filled,
          range.offset + filled,
        );
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { ...info, bytes: filled === length ? bytes : bytes.slice(0, filled) };
    });
  }

  /** Runs `read` on the open file of `key` and its info; undefined when there is no file. */
  async #withFile<T>(
    key: string,
    read: (file: FileHandle, info: StoredObjectInfo & { readonly version: string }) => Promise<T>,
  ): Promise<T | undefined> {
    let file: FileHandle;
    try {
      file = await open(this.#path(key), "r");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      return await read(file, fileInfo(await file.stat({ bigint: true })));
    } finally {
      await file.close();
    }
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await rm(this.#path(key), { force: true });
    await rm(this.#path(`${key}.type`), { force: true });
  }

  /**
   * Every stored object: its bytes, or a content-type file alone (a crash between writing the
   * two leaves one). Partial uploads and files this storage did not write are not listed.
   */
  async list(): Promise<StoredObjectEntry[]> {
    const latest = new Map<string, number>();
    for (const name of await this.#names()) {
      const key = name.endsWith(TYPE_SUFFIX) ? name.slice(0, -TYPE_SUFFIX.length) : name;
      if (!isStorageKey(key)) continue;
      const modifiedAt = await this.#fileModifiedAt(name);
      if (modifiedAt === undefined) continue;
      latest.set(key, Math.max(latest.get(key) ?? 0, modifiedAt));
    }
    return [...latest].map(([key, modifiedAt]) => ({ key, modifiedAt }));
  }

  /**
   * Removes `*.partial` files (uploads cut off by a crash) last written at least `olderThanMs`
   * before `now`; returns their names.
   */
  async removeAbandonedPartials(
    olderThanMs: number = DEFAULT_PARTIAL_GRACE_MS,
    now: number = Date.now(),
  ): Promise<string[]> {
    const removed: string[] = [];
    for (const name of await this.#names()) {
      if (!name.endsWith(PARTIAL_SUFFIX)) continue;
      const modifiedAt = await this.#fileModifiedAt(name);
      if (modifiedAt === undefined || modifiedAt > now - olderThanMs) continue;
      await rm(this.#path(name), { force: true });
      removed.push(name);
    }
    return removed;
  }

  async #names(): Promise<string[]> {
    try {
      return await readdir(this.folder);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  /** A regular file's modification time; undefined when it is gone or not a file. */
  async #fileModifiedAt(name: string): Promise<number | undefined> {
    try {
      const stats = await lstat(this.#path(name));
      return stats.isFile() ? stats.mtimeMs : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  #path(name: string): string {
    return join(this.folder, name);
  }
}

/**
 * A file's size and version: its inode, size, and modification and change times in
 * nanoseconds. A put renames a new file over the key (a new inode, new times) and a rewrite in
 * place changes the times; the change time cannot be set back by a program.
 */
function fileInfo(stats: BigIntStats): StoredObjectInfo & { readonly version: string } {
  const version = [stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(".");
  return { size: Number(stats.size), version };
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
