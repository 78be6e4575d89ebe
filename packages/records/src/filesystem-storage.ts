import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { randomToken } from "@tessera/crypto";
import { assertStorageKey, type ObjectStorage, type StoredObject } from "./object-storage.js";

const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/**
 * Object storage in a folder (Node only): `<folder>/<key>` holds the bytes and
 * `<folder>/<key>.type` the content type. Keys must be {@link isStorageKey} tokens, which have
 * no separator or dot, so no key can reach outside the folder or collide with a sidecar.
 */
export class FilesystemObjectStorage implements ObjectStorage {
  constructor(private readonly folder: string) {}

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
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(await readFile(this.#path(key)));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const contentType = await readFile(this.#path(`${key}.type`), "utf8").catch(
      (error: unknown) => {
        if (isMissing(error)) return DEFAULT_CONTENT_TYPE;
        throw error;
      },
    );
    return { bytes, contentType };
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await rm(this.#path(key), { force: true });
    await rm(this.#path(`${key}.type`), { force: true });
  }

  #path(name: string): string {
    return join(this.folder, name);
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
