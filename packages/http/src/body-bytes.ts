import { fail, ok, type Result } from "@tessera/core";

/** Default body size cap of the readers: 1 MiB. */
export const DEFAULT_MAXIMUM_BODY_BYTES = 1_048_576;

/** Why a body could not be read whole. */
export type BodyBytesFailure = "too-large" | "unreadable";

/**
 * Reads a request body up to `maximumBytes`. Refuses at once when `Content-Length` already says
 * more, and otherwise counts while streaming, because a chunked or lying body has no honest
 * length. Reading stops (and the stream is cancelled) at the first byte over the cap.
 * @throws {TypeError} when the body was already read: that is a bug in the caller.
 */
export async function readBodyBytes(
  request: Request,
  maximumBytes: number,
): Promise<Result<Uint8Array, BodyBytesFailure>> {
  if (request.bodyUsed) throw new TypeError("the request body has already been read");
  const declared = request.headers.get("content-length");
  if (declared !== null && /^[0-9]+$/.test(declared.trim()) && Number(declared) > maximumBytes) {
    await cancelQuietly(request.body);
    return fail("too-large");
  }
  if (request.body === null) return ok(new Uint8Array(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maximumBytes) {
        await reader.cancel().catch(() => undefined);
        return fail("too-large");
      }
      chunks.push(value);
    }
  } catch {
    return fail("unreadable");
  } finally {
    reader.releaseLock();
  }
  return ok(concatenate(chunks, total));
}

async function cancelQuietly(body: ReadableStream<Uint8Array> | null): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // A stream that cannot be cancelled is left to the runtime; the answer is the same.
  }
}

function concatenate(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
