// The dev server's edge in front of miniflare, against a recording upstream: the client's
// address comes from the socket whatever the client wrote, and everything else passes as it was.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeProxy, edgeClientAddress, startEdgeProxy } from "../src/edge-proxy.js";
import { fetchFrom } from "./loopback-client.js";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly body: Buffer;
}

let upstream: Server;
let edge: EdgeProxy;
const seen: Seen[] = [];

beforeAll(async () => {
  upstream = createServer(async (incoming: IncomingMessage, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    seen.push({
      method: incoming.method ?? "",
      url: incoming.url ?? "",
      rawHeaders: incoming.rawHeaders,
      body: Buffer.concat(chunks),
    });
    outgoing.writeHead(201, [
      "Set-Cookie",
      "a=1; Path=/",
      "Set-Cookie",
      "b=2; Path=/",
      "Content-Type",
      "application/octet-stream",
    ]);
    outgoing.end(Buffer.concat(chunks));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  edge = await startEdgeProxy({
    host: "127.0.0.1",
    port: 0,
    upstream: new URL(`http://127.0.0.1:${port}`),
  });
});

afterAll(async () => {
  await edge.close();
  await new Promise((resolve) => upstream.close(resolve));
});

/** The values the upstream saw for `name`, in order. */
function headerValues(request: Seen, name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]!.toLowerCase() === name)
      values.push(request.rawHeaders[index + 1]!);
  }
  return values;
}

describe("the dev server's edge", () => {
  it("sets CF-Connecting-IP from the socket and appends it to X-Forwarded-For, as Cloudflare does", async () => {
    seen.length = 0;
    await fetchFrom("127.0.0.9", `${edge.url.origin}/api/auth/token?x=1`, {
      method: "POST",
      headers: {
        "cf-connecting-ip": "203.0.113.7",
        "x-forwarded-for": "198.51.100.1, 198.51.100.2",
        "true-client-ip": "203.0.113.8",
        "x-real-ip": "203.0.113.9",
        "mf-original-url": "https://elsewhere.example/api/health",
        "mf-cf-blob": '{"country":"XX"}',
        "x-kept": "as sent",
      },
      body: "{}",
    });
    const [request] = seen;
    expect(request!.url).toBe("/api/auth/token?x=1");
    expect(headerValues(request!, "cf-connecting-ip")).toEqual(["127.0.0.9"]);
    expect(headerValues(request!, "x-forwarded-for")).toEqual([
      "198.51.100.1, 198.51.100.2, 127.0.0.9",
    ]);
    for (const dropped of ["true-client-ip", "x-real-ip", "mf-original-url", "mf-cf-blob"]) {
      expect(headerValues(request!, dropped)).toEqual([]);
    }
    expect(headerValues(request!, "x-kept")).toEqual(["as sent"]);
    expect(headerValues(request!, "host")).toEqual([edge.url.host]);
  });

  it("makes X-Forwarded-For of the socket address when the client sent none", async () => {
    seen.length = 0;
    await fetchFrom("127.0.0.10", `${edge.url.origin}/`);
    expect(headerValues(seen[0]!, "x-forwarded-for")).toEqual(["127.0.0.10"]);
    expect(headerValues(seen[0]!, "cf-connecting-ip")).toEqual(["127.0.0.10"]);
  });

  it("passes bodies both ways byte for byte, and every Set-Cookie of the answer", async () => {
    seen.length = 0;
    const bytes = new Uint8Array(256 * 1024).map((_, index) => (index * 7) % 256);
    const response = await fetch(`${edge.url.origin}/upload`, { method: "PUT", body: bytes });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    // Compared as buffers: an element-by-element diff of 256 KiB takes seconds.
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(seen[0]!.method).toBe("PUT");
    expect(seen[0]!.body.equals(bytes)).toBe(true);
  });

  it("writes an IPv4 peer of a dual-stack socket as plain IPv4, and leaves IPv6 as it is", () => {
    expect(edgeClientAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(edgeClientAddress("127.0.0.1")).toBe("127.0.0.1");
    expect(edgeClientAddress("2001:db8::1")).toBe("2001:db8::1");
  });
});
