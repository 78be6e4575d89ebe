import { fail, ok, type Result } from "@tessera/core";
import { parseMediaType, readBodyBytes } from "@tessera/http";

/** Why a multipart body could not be read. */
export type MultipartFailure = "not-multipart" | "too-large" | "unreadable" | "malformed";

/**
 * Reads a `multipart/form-data` body of at most `maximumBytes`. The cap holds before parsing:
 * a larger `Content-Length` is refused unread and the streamed bytes are counted, because
 * `request.formData()` alone would buffer any size. Never throws on input.
 */
export async function readMultipartBody(
  request: Request,
  maximumBytes: number,
): Promise<Result<FormData, MultipartFailure>> {
  const contentType = request.headers.get("content-type");
  if (parseMediaType(contentType)?.essence !== "multipart/form-data") return fail("not-multipart");
  const bytes = await readBodyBytes(request, maximumBytes);
  if (!bytes.ok) return fail(bytes.reason);
  try {
    // The counted bytes, parsed by the runtime's own multipart reader. They were read from a
    // stream into fresh memory, never a shared buffer.
    const counted = bytes.value as Uint8Array<ArrayBuffer>;
    const parsed = new Response(counted, { headers: { "Content-Type": contentType ?? "" } });
    return ok(await parsed.formData());
  } catch {
    return fail("malformed");
  }
}
