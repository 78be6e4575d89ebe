// What Cloudflare's edge does to a request before the Worker sees it, for the dev server: the
// client's address comes from the socket, never from what the client wrote. miniflare alone
// keeps a client-sent `CF-Connecting-IP` (it sets one only when none came), so rotating that
// header was a fresh client to the sign-in rate limit on every request.
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream";

/**
 * Request headers the edge writes itself, so whatever the client sent is dropped first:
 * `CF-Connecting-IP` (set from the socket below), `X-Real-IP` (Cloudflare strips it),
 * `True-Client-IP` (only Enterprise zones get it, and there Cloudflare sets it; elsewhere
 * Cloudflare passes the client's on, which nothing should trust, so it is removed here).
 */
const EDGE_WRITTEN = new Set(["cf-connecting-ip", "x-real-ip", "true-client-ip"]);
/** Hop-by-hop headers: about one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection"]);
/**
 * miniflare's own control headers (`MF-Original-URL` would change the URL the Worker sees,
 * `MF-CF-Blob` its `request.cf`): Cloudflare has none, so a client may not send them either.
 */
const MINIFLARE_CONTROL = /^mf-/i;

/** The address as Cloudflare writes it: an IPv4 peer of a dual-stack socket as plain IPv4. */
export function edgeClientAddress(socketAddress: string): string {
  return socketAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/**
 * The headers to forward, as raw name/value pairs in the client's order: the edge-written ones
 * and miniflare's dropped, `CF-Connecting-IP` set to `clientAddress`, and `clientAddress`
 * appended to `X-Forwarded-For` (or the header made of it), as Cloudflare does.
 */
export function edgeRequestHeaders(rawHeaders: readonly string[], clientAddress: string): string[] {
  const forwarded: string[] = [];
  const forwardedFor: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!;
    const value = rawHeaders[index + 1]!;
    const lower = name.toLowerCase();
    if (EDGE_WRITTEN.has(lower) || HOP_BY_HOP.has(lower) || MINIFLARE_CONTROL.test(lower)) continue;
    if (lower === "x-forwarded-for") forwardedFor.push(value);
    else forwarded.push(name, value);
  }
  forwardedFor.push(clientAddress);
  forwarded.push("CF-Connecting-IP", clientAddress, "X-Forwarded-For", forwardedFor.join(", "));
  return forwarded;
}

/** A running edge: its public URL, and how to stop it. */
export interface EdgeProxy {
  readonly url: URL;
  close(): Promise<void>;
}

/**
 * Listens on `host`:`port` and forwards every request to `upstream` (miniflare's own socket,
 * on loopback) with the edge's headers, streaming both bodies untouched.
 */
export async function startEdgeProxy(options: {
  readonly host: string;
  readonly port: number;
  readonly upstream: URL;
}): Promise<EdgeProxy> {
  const { upstream } = options;
  const server = createServer((incoming, outgoing) => forward(incoming, outgoing, upstream));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: new URL(`http://${host}:${port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A connection to miniflare per request: a kept-alive one that workerd closes while idle can be
 * picked for the next request just as it goes, and that request would fail.
 */
const toMiniflare = new Agent({ keepAlive: false });

function forward(incoming: IncomingMessage, outgoing: ServerResponse, upstream: URL): void {
  const clientAddress = edgeClientAddress(incoming.socket.remoteAddress ?? "");
  let answered = false;
  const toWorker = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: edgeRequestHeaders(incoming.rawHeaders, clientAddress),
      agent: toMiniflare,
    },
    (answer) => {
      answered = true;
      const headers: string[] = [];
      for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
        const name = answer.rawHeaders[index]!;
        if (!HOP_BY_HOP.has(name.toLowerCase())) headers.push(name, answer.rawHeaders[index + 1]!);
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
      pipeline(answer, outgoing, () => {});
    },
  );
  toWorker.on("error", (error) => {
    // The Worker stopped reading (it answered early, or it is gone): the rest of the body is
    // read and dropped, so the client still gets the answer rather than a reset.
    incoming.unpipe(toWorker);
    incoming.resume();
    if (answered) return;
    console.error(`The Worker did not answer ${incoming.method} ${incoming.url}: ${error.message}`);
    outgoing.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    outgoing.end(`The Worker did not answer: ${error.message}\n`);
  });
  incoming.pipe(toWorker);
  // A client that goes away first takes the forwarded request with it.
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) toWorker.destroy();
  });
}
