import { fail, ok, type Result } from "@tessera/core";

/** Default body size cap of the readers: 1 MiB. */
export const DEFAULT_MAXIMUM_BODY_BYTES = 1_048_576;

/** Why a body could not be read whole. */
export type BodyBytesFailure = "too-large" | "unreadable";

/**
 * Reads a request body up to `maximumBytes`. Refuses at once when `Content-Length` already says
 * more. A body with an honest length is read whole through the runtime's own `arrayBuffer()`:
 * the HTTP parser frames it by that length, and the runtime reads it without a web stream
 * (on Node with `@hono/node-server`, straight from the socket: several times cheaper per
 * request). A chunked body has no honest length, so it is streamed and counted, and reading
 * stops (the stream cancelled) at the first byte over the cap.
 * @throws {TypeError} when the body was already read: that is a bug in the caller.
 */
export async function readBodyBytes(
  request: Request,
  maximumBytes: number,
): Promise<Result<Uint8Array, BodyBytesFailure>> {
  if (request.bodyUsed) throw new TypeError("the request body has already been read");
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maximumBytes) {
    await cancelQuietly(request.body);
    return fail("too-large");
  }
  if (declared !== undefined) return readDeclared(request, maximumBytes);
  if (request.body === null) return ok(new Uint8Array(0));
  return readStreamed(request.body, maximumBytes);
}

/** The `Content-Length` of a request, when it is a plain decimal number. */
function declaredLength(request: Request): number | undefined {
  const declared = request.headers.get("content-length")?.trim();
  return declared !== undefined && /^[0-9]+$/.test(declared) ? Number(declared) : undefined;
}

async function readDeclared(
  request: Request,
  maximumBytes: number,
): Promise<Result<Uint8Array, BodyBytesFailure>> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch {
    return fail("unreadable");
  }
  // Only a Request made in code can carry more than its length says; it is still refused.
  return bytes.byteLength > maximumBytes ? fail("too-large") : ok(bytes);
}

async function readStreamed(
  body: ReadableStream<Uint8Array>,
  maximumBytes: number,
): Promise<Result<Uint8Array, BodyBytesFailure>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const read = await streamChunks(body, maximumBytes, (chunk) => {
    chunks.push(chunk);
    total += chunk.byteLength;
    return "more";
  });
  return read.ok ? ok(concatenate(chunks, total)) : read;
}

/** What a chunk consumer of {@link readBodyChunks} wants next: the next chunk, or no more. */
export type ChunkDemand = "more" | "stop";

/**
 * Hands a request body to `take` one chunk at a time, as it arrives, without holding it: for a
 * reader that parses while the body streams in, and may refuse it before its end. At most
 * `maximumBytes` are handed over: a larger `Content-Length` is refused unread, and reading stops
 * (the stream cancelled) at the first byte over, whatever the length said. Reading also stops,
 * the stream cancelled, when `take` answers `"stop"`; the result is then ok, and the refusal
 * the consumer's. The next chunk is read only once `take`'s answer has settled.
 * @throws {TypeError} when the body was already read: that is a bug in the caller.
 */
export async function readBodyChunks(
  request: Request,
  maximumBytes: number,
  take: (chunk: Uint8Array) => ChunkDemand | Promise<ChunkDemand>,
): Promise<Result<void, BodyBytesFailure>> {
  if (request.bodyUsed) throw new TypeError("the request body has already been read");
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maximumBytes) {
    await cancelQuietly(request.body);
    return fail("too-large");
  }
  if (request.body === null) return ok(undefined);
  return streamChunks(request.body, maximumBytes, take);
}

async function streamChunks(
  body: ReadableStream<Uint8Array>,
  maximumBytes: number,
  take: (chunk: Uint8Array) => ChunkDemand | Promise<ChunkDemand>,
): Promise<Result<void, BodyBytesFailure>> {
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        return fail("unreadable");
      }
      const { done, value } = next;
      if (done) return ok(undefined);
      total += value.byteLength;
      if (total > maximumBytes) {
        await reader.cancel().catch(() => undefined);
        return fail("too-large");
      }
      if ((await take(value)) === "stop") {
        await reader.cancel().catch(() => undefined);
        return ok(undefined);
      }
    }
  } finally {
    reader.releaseLock();
  }
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
