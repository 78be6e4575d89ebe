import type { ClientRequest } from "node:http";

/**
 * Writes `body` to `request` `chunkBytes` at a time, waiting for `drain` between chunks, and stops
 * once `answered()` is true (as a browser stops sending when the answer comes) or the request is
 * destroyed; ends the request when the whole body went out.
 */
export function writeUntilAnswered(
  request: ClientRequest,
  body: Uint8Array,
  chunkBytes: number,
  answered: () => boolean,
): void {
  let sent = 0;
  const writeMore = () => {
    while (sent < body.byteLength && !answered() && !request.destroyed) {
      const more = request.write(body.subarray(sent, sent + chunkBytes));
      sent += chunkBytes;
      if (!more) {
        request.once("drain", writeMore);
        return;
      }
    }
    if (sent >= body.byteLength) request.end();
  };
  writeMore();
}
