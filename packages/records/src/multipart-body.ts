import { fail, ok, type Result } from "@tessera/core";
import { parseMediaType, readBodyChunks } from "@tessera/http";
import {
  isValidBoundary,
  type MultipartLimits,
  MultipartParser,
  type MultipartPart,
  type MultipartRefusal,
} from "./multipart-parser.js";

/** Why a multipart body could not be read. */
export type MultipartFailure = "not-multipart" | "too-large" | "unreadable" | MultipartRefusal;

/**
 * Default bound on the parts of one multipart body: a record's form has a few dozen fields at
 * most, and the rest is room for files. Counted as the body streams in, before any part is kept.
 */
export const DEFAULT_MAXIMUM_MULTIPART_PARTS = 1_000;

/**
 * Default bound on the parts of one multipart body under one name: the files one multiple file
 * input (an `attachments` field) sends at once. A name sent more often is refused, not cut.
 */
export const DEFAULT_MAXIMUM_PARTS_PER_NAME = 100;

/**
 * Bytes parsed between two yields to the event loop: parsing that much takes well under a
 * millisecond, so a body of any size never holds up other requests for longer than that.
 */
export const MULTIPART_SLICE_BYTES = 256 * 1024;

/**
 * Reads a `multipart/form-data` body of at most `maximumBytes` into a FormData, parsing it as it
 * streams in: a larger `Content-Length` is refused unread, and the body is refused at the first
 * byte over the cap, at the first part past `limits.maximumParts`
 * ({@link DEFAULT_MAXIMUM_MULTIPART_PARTS}) or the first past `limits.maximumPartsPerName`
 * ({@link DEFAULT_MAXIMUM_PARTS_PER_NAME}) under one name, without reading further. The parser
 * yields to the event loop every {@link MULTIPART_SLICE_BYTES}. Never throws on input.
 */
export async function readMultipartBody(
  request: Request,
  maximumBytes: number,
  limits: Partial<MultipartLimits> = {},
): Promise<Result<FormData, MultipartFailure>> {
  const mediaType = parseMediaType(request.headers.get("content-type"));
  if (mediaType?.essence !== "multipart/form-data") return fail("not-multipart");
  const boundary = mediaType.parameters.get("boundary");
  if (boundary === undefined || !isValidBoundary(boundary)) return fail("malformed");
  const form = new FormData();
  const parser = new MultipartParser(
    boundary,
    {
      maximumParts: limits.maximumParts ?? DEFAULT_MAXIMUM_MULTIPART_PARTS,
      maximumPartsPerName: limits.maximumPartsPerName ?? DEFAULT_MAXIMUM_PARTS_PER_NAME,
    },
    (part) => appendPart(form, part),
  );
  let refusal: MultipartRefusal | undefined;
  let sinceYield = 0;
  const read = await readBodyChunks(request, maximumBytes, async (chunk) => {
    for (let start = 0; start < chunk.byteLength && !parser.closed; ) {
      if (sinceYield >= MULTIPART_SLICE_BYTES) {
        // A timer, not a microtask: other requests' I/O runs in between (on every runtime).
        await new Promise((resolve) => setTimeout(resolve, 0));
        sinceYield = 0;
      }
      const end = Math.min(chunk.byteLength, start + MULTIPART_SLICE_BYTES - sinceYield);
      refusal = parser.push(chunk.subarray(start, end));
      if (refusal !== undefined) return "stop";
      sinceYield += end - start;
      start = end;
    }
    // The closing delimiter was read: the epilogue after it is not wanted.
    return parser.closed ? "stop" : "more";
  });
  if (!read.ok) return fail(read.reason);
  refusal ??= parser.finish();
  return refusal === undefined ? ok(form) : fail(refusal);
}

/** A part into the form: a File when it named a file name (RFC 7578's default type), else text. */
function appendPart(form: FormData, part: MultipartPart): void {
  if (part.filename !== undefined) {
    const type = part.contentType ?? "text/plain";
    form.append(part.name, new File([...part.content], part.filename, { type }));
    return;
  }
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for (const bytes of part.content) text += decoder.decode(bytes, { stream: true });
  form.append(part.name, text + decoder.decode());
}
