import type { ServerResponse } from "node:http";

/**
 * Writes a WHATWG Response to a Node response: every `Set-Cookie` as its own header line, the
 * body streamed with backpressure, and the body's stream cancelled if the client goes away.
 */
export async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  if (response.statusText) outgoing.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") outgoing.setHeader(name, value);
  }
  if (cookies.length > 0) outgoing.setHeader("set-cookie", cookies);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  const closed = () => void reader.cancel().catch(() => undefined);
  outgoing.once("close", closed);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value)) {
        // The client may already be gone: then no 'drain' and no further 'close' will come.
        if (outgoing.destroyed) return;
        await new Promise<void>((resolve) => {
          const settle = () => {
            outgoing.off("drain", settle);
            outgoing.off("close", settle);
            resolve();
          };
          outgoing.once("drain", settle);
          outgoing.once("close", settle);
        });
      }
    }
    outgoing.end();
  } finally {
    outgoing.off("close", closed);
  }
}
