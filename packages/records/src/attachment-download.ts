import type { Locale } from "@tessera/core";
import { jsonError } from "@tessera/http";
import { requestedRange } from "./byte-ranges.js";
import { ifNoneMatchHolds, ifRangeHolds, objectEntityTag } from "./entity-tags.js";
import { infoOf, partOf, readRange, statObject } from "./object-reads.js";
import type { ObjectStorage, StoredObject, StoredObjectInfo } from "./object-storage.js";
import { recordMessages } from "./record-messages.js";
import type { StoredFile } from "./record-store.js";

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266,
 * RFC 8187): the fallback replaces quotes, backslashes and non-ASCII with `_`, so the header
 * cannot be broken out of, and `attachment` keeps browsers from rendering the file in place.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Options of {@link downloadResponse}. */
export interface DownloadOptions {
  /**
   * The download's request: `HEAD`, `If-None-Match`, `Range` and `If-Range` shape the answer.
   * Without it the answer is the whole file (200).
   */
  readonly request?: Request | undefined;
  /**
   * The body of a 416 (the status and `Content-Range` are set here). Default: the JSON
   * envelope `Range not satisfiable`; the HTML routes answer a page.
   */
  readonly rangeNotSatisfiable?: (() => Response) | undefined;
  /** The language of the default 416's message; English when absent. */
  readonly locale?: Locale | undefined;
}

// Sent on every answer that describes the file, 304 included: uploaded HTML or SVG must not
// run as a page of this origin, and every answer is revalidated before reuse.
const PROTECTIVE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cache-Control": "private, no-cache",
} as const;

function fileHeaders(file: StoredFile, etag: string, length: number): Record<string, string> {
  return {
    "Content-Type": file.contentType,
    "Content-Length": String(length),
    "Content-Disposition": contentDisposition(file.filename),
    ...PROTECTIVE_HEADERS,
    ETag: etag,
    "Accept-Ranges": "bytes",
  };
}

function wholeResponse(file: StoredFile, object: StoredObject | undefined): Response | undefined {
  if (!object) return undefined;
  const etag = objectEntityTag(file.key, infoOf(object));
  return new Response(object.bytes, {
    status: 200,
    headers: fileHeaders(file, etag, object.bytes.byteLength),
  });
}

function sameObject(a: StoredObjectInfo, b: StoredObjectInfo): boolean {
  return a.size === b.size && a.version === b.version;
}

/**
 * The download of a stored file, or undefined when its object is gone. The type is the one
 * recorded at upload; `nosniff`, `attachment` and a sandboxing CSP keep an uploaded HTML or
 * SVG file from running as a page of this origin. With `options.request`: a strong `ETag`
 * (a digest of the key, the size and the store's version) and `Accept-Ranges: bytes` on every answer, 304 for a
 * matching `If-None-Match`, 206 for one satisfiable `Range` (unless `If-Range` names another
 * version), 416 for an unsatisfiable one, and `HEAD` without reading the bytes when the store
 * has `stat`. A malformed `Range`, or one asking several ranges, is answered whole (200).
 */
export async function downloadResponse(
  storage: ObjectStorage,
  file: StoredFile,
  options: DownloadOptions = {},
): Promise<Response | undefined> {
  const { request } = options;
  const head = request?.method === "HEAD";
  const ifNoneMatch = request?.headers.get("if-none-match") ?? null;
  // Range is defined for GET only (RFC 9110 §14.2): a HEAD describes the whole file.
  const range = head ? null : (request?.headers.get("range") ?? null);
  if (!head && ifNoneMatch === null && range === null) {
    return wholeResponse(file, await storage.get(file.key));
  }
  const found = await statObject(storage, file.key);
  if (!found) return undefined;
  const etag = objectEntityTag(file.key, found.info);
  if (ifNoneMatch !== null && ifNoneMatchHolds(ifNoneMatch, etag)) {
    return new Response(null, { status: 304, headers: { ETag: etag, ...PROTECTIVE_HEADERS } });
  }
  if (head) {
    return new Response(null, { status: 200, headers: fileHeaders(file, etag, found.info.size) });
  }
  if (range !== null && ifRangeHolds(request?.headers.get("if-range") ?? null, etag)) {
    const asked = requestedRange(range, found.info.size);
    if (asked.kind === "unsatisfiable") {
      const refusal =
        options.rangeNotSatisfiable?.() ??
        jsonError(416, recordMessages.text(options.locale, "records.range_not_satisfiable"));
      const headers = new Headers(refusal.headers);
      headers.set("Content-Range", `bytes */${found.info.size}`);
      return new Response(refusal.body, { status: 416, headers });
    }
    if (asked.kind === "part") {
      const { offset } = asked.range;
      const part = found.whole
        ? partOf(found.whole, asked.range)
        : await readRange(storage, file.key, asked.range);
      if (!part) return undefined;
      // A part of another version than the one the tag names would splice two files
      // together in the client: when the object changed between the reads, send it whole.
      if (sameObject(part, found.info)) {
        const last = offset + part.bytes.byteLength - 1;
        return new Response(part.bytes, {
          status: 206,
          headers: {
            ...fileHeaders(file, etag, part.bytes.byteLength),
            "Content-Range": `bytes ${offset}-${last}/${part.size}`,
          },
        });
      }
    }
  }
  return wholeResponse(file, found.whole ?? (await storage.get(file.key)));
}

/** The stored file of attachment `name` in a row, or undefined when it holds none. */
export function attachedFile(row: Readonly<Record<string, unknown>>, name: string) {
  const key = row[`${name}_key`];
  if (typeof key !== "string") return undefined;
  const file: StoredFile = {
    key,
    filename: String(row[`${name}_filename`] ?? "file"),
    contentType: String(row[`${name}_content_type`] ?? "application/octet-stream"),
    size: Number(row[`${name}_size`] ?? 0),
  };
  return file;
}
