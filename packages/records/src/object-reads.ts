import type {
  ByteRange,
  ObjectStorage,
  StoredObject,
  StoredObjectInfo,
  StoredObjectPart,
} from "./object-storage.js";

/** The size and version of an object read whole. */
export function infoOf(object: StoredObject): StoredObjectInfo {
  const size = object.bytes.byteLength;
  return object.version === undefined ? { size } : { size, version: object.version };
}

/** `range` of an object read whole, cut at its end. */
export function partOf(object: StoredObject, range: ByteRange): StoredObjectPart {
  const bytes = object.bytes.slice(range.offset, range.offset + range.length);
  return { ...infoOf(object), bytes };
}

/**
 * `range` of the object under `key`: only those bytes from a store with `getRange`, else the
 * whole object read and cut (a store written before ranges existed still serves them).
 */
export async function readRange(
  storage: ObjectStorage,
  key: string,
  range: ByteRange,
): Promise<StoredObjectPart | undefined> {
  if (storage.getRange) return storage.getRange(key, range);
  const object = await storage.get(key);
  return object && partOf(object, range);
}

/** Size and version of the object under `key`: `stat` when the store has it, else a whole read. */
export async function statObject(
  storage: ObjectStorage,
  key: string,
): Promise<{ readonly info: StoredObjectInfo; readonly whole?: StoredObject } | undefined> {
  if (storage.stat) {
    const info = await storage.stat(key);
    return info && { info };
  }
  const whole = await storage.get(key);
  return whole && { info: infoOf(whole), whole };
}
