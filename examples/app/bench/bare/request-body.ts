import type { IncomingMessage } from "node:http";

/**
 * The request's body as a Buffer, or undefined when it is (or grows) larger than `maxBytes`:
 * the declared Content-Length is checked before anything is read, the running total after
 * each chunk, so an oversized body is never buffered whole.
 */
export async function readBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}
