import type { ObjectStorage } from "./object-storage.js";
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

/**
 * The download of a stored file, or undefined when its object is gone. The type is the one
 * recorded at upload; `nosniff`, `attachment` and a sandboxing CSP keep an uploaded HTML or
 * SVG file from running as a page of this origin.
 */
export async function downloadResponse(
  storage: ObjectStorage,
  file: StoredFile,
): Promise<Response | undefined> {
  const object = await storage.get(file.key);
  if (!object) return undefined;
  return new Response(object.bytes, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(object.bytes.byteLength),
      "Content-Disposition": contentDisposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-cache",
    },
  });
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
