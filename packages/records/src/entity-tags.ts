// Entity tags of downloads (RFC 9110 §8.8.3) and the conditions that compare them:
// `If-None-Match` (weak comparison, §13.1.2) and `If-Range` (strong comparison, §13.1.5).
// Written here rather than taken from `fresh` or `etag`: those expect Node's request objects
// or hash the whole body, and this package runs on every runtime without reading the bytes.
import { encodeBase64url, sha256 } from "@tessera/crypto";
import type { StoredObjectInfo } from "./object-storage.js";

/**
 * The strong `ETag` of the object under `key`: a digest of the key, the size and the store's
 * version. Keys are random and never reused by the routes (a new upload is a new key), so
 * the key alone changes with every upload; the store's version (R2's etag, a file's inode and
 * times) also catches bytes rewritten under the same key. The digest keeps those internals
 * (and the storage key) out of the header.
 */
export function objectEntityTag(key: string, info: StoredObjectInfo): string {
  const digest = sha256(`${key}\n${info.size}\n${info.version ?? ""}`);
  return `"${encodeBase64url(digest.subarray(0, 16))}"`;
}

interface EntityTag {
  readonly weak: boolean;
  /** The quoted part, quotes included. */
  readonly opaque: string;
}

// etagc is %x21 / %x23-7E / obs-text; header values reach us as byte strings.
const ENTITY_TAG = /(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/y;
const LIST_SEPARATORS = /[ \t,]*/y;
const SPACES = /[ \t]*/y;

/** Moves past what `pattern` (sticky) matches at `index`; the index after it. */
function skip(pattern: RegExp, text: string, index: number): number {
  pattern.lastIndex = index;
  pattern.exec(text);
  return pattern.lastIndex;
}

/**
 * The entity tags of a list header (`#entity-tag`: empty elements allowed), or undefined
 * when any element is not an entity tag.
 */
function entityTagList(header: string): EntityTag[] | undefined {
  const tags: EntityTag[] = [];
  let index = skip(LIST_SEPARATORS, header, 0);
  while (index < header.length) {
    ENTITY_TAG.lastIndex = index;
    const match = ENTITY_TAG.exec(header);
    if (!match) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    index = skip(SPACES, header, ENTITY_TAG.lastIndex);
    if (index < header.length && header[index] !== ",") return undefined;
    index = skip(LIST_SEPARATORS, header, index);
  }
  return tags;
}

/**
 * True when `If-None-Match` matches the current tag, so a `GET` or `HEAD` answers 304: `*`,
 * or any listed tag equal to it by weak comparison (`W/"x"` matches `"x"`). A malformed
 * header matches nothing, and the file is sent.
 */
export function ifNoneMatchHolds(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return entityTagList(header)?.some((tag) => tag.opaque === etag) ?? false;
}

/**
 * True when a `Range` may be honoured under `If-Range`: no `If-Range`, or exactly the current
 * tag (strong comparison; ours are strong, so a `W/` tag never matches). Another tag, a list,
 * or a date (downloads send no `Last-Modified`, so none can match) means the file changed
 * for the client: send it whole.
 */
export function ifRangeHolds(header: string | null, etag: string): boolean {
  return header === null || header.replace(/^[ \t]+|[ \t]+$/g, "") === etag;
}
