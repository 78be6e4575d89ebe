// A route that answers before reading its whole body (a body over its cap, a refusal before
// the read) must reach the client: over real sockets, on node:http, Express and Fastify.
import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { jsonError, type Route, readBodyBytes } from "@tessera/http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_LIMIT_BYTES, fastifyRoutes, toNodeHandler } from "../src/index.js";

const MiB = 1024 * 1024;
/** Far over the routes' 1 KiB, under the adapter's cap. */
const OVER = 3 * MiB;
/** Over the adapter's cap, and over what a closing connection reads before it closes. */
const FAR_OVER = 20 * MiB;

/** Reads at most 1 KiB, answering the JSON envelope's 400 for more. */
const capped: Route = {
  method: "POST",
  path: "/capped",
  handle: async (request) => {
    const body = await readBodyBytes(request, 1024);
    if (!body.ok) return jsonError(400, `refused: ${body.reason}`);
    return Response.json({ bytes: body.value.byteLength });
  },
};
/** Refuses before looking at the body at all, as a route that checks credentials first. */
const unauthorized: Route = {
  method: "POST",
  path: "/unauthorized",
  handle: async () => jsonError(401, "Unauthorized"),
};
const ping: Route = { method: "GET", path: "/ping", handle: async () => new Response("pong") };
const routes = [capped, unauthorized, ping];
const options = { maximumBodyBytes: 4 * MiB, onError: () => {} };

interface Served {
  readonly base: string;
  close(): Promise<void>;
}

async function listening(server: Server): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

const hosts: Record<string, () => Promise<Served>> = {
  "node:http": () => listening(createServer(toNodeHandler(routes, options))),
  "Express 5": () => {
    const app = express();
    app.use(toNodeHandler(routes, options));
    return listening(createServer(app));
  },
  "Fastify 5": async () => {
    const { default: Fastify } = await import("fastify");
    const app = Fastify();
    await app.register(fastifyRoutes(routes, options));
    const base = await app.listen({ port: 0, host: "127.0.0.1" });
    return { base, close: () => app.close() };
  },
};

/** A body of `bytes` sent in 64 KiB chunks without a length (chunked transfer coding). */
function chunkedBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, bytes - sent)).fill(120);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/** Posts with node's own client: the answer's status and body, and whether a socket was reused. */
function postWithNodeClient(
  url: string,
  body: Buffer,
  agent?: Agent,
): Promise<{ status: number; text: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: "POST",
        headers: { "content-length": body.byteLength },
        ...(agent ? { agent } : {}),
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text, reusedSocket: sent.reusedSocket }),
        );
      },
    );
    // An error before the answer fails the request; one after it (the client still writing
    // when the connection closes) changes nothing the client already read.
    sent.on("error", reject);
    sent.end(body);
  });
}

describe.each(Object.keys(hosts))("a body the route does not read to its end, on %s", (host) => {
  let served: Served;
  beforeAll(async () => {
    served = await hosts[host]!();
  });
  afterAll(() => served.close());

  it("gets the route's answer for a declared body far over its cap, then the close", async () => {
    const response = await fetch(`${served.base}/capped`, {
      method: "POST",
      body: new Uint8Array(OVER),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({
      error: { code: "bad_request", message: "refused: too-large", status: 400 },
    });
  });

  it("gets the route's answer for a chunked body far over its cap", async () => {
    const response = await fetch(`${served.base}/capped`, {
      method: "POST",
      body: chunkedBody(OVER),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "bad_request", message: "refused: too-large", status: 400 },
    });
  });

  it("gets the 413 of a body over the adapter's own cap", async () => {
    const overAdapterCap = await fetch(`${served.base}/unauthorized`, {
      method: "POST",
      body: new Uint8Array(FAR_OVER),
    });
    expect(overAdapterCap.status).toBe(413);
    expect(await overAdapterCap.json()).toEqual({
      error: { code: "payload_too_large", message: "Request body too large", status: 413 },
    });
  });

  it("gets a refusal made before the body was read, with node's own client too", async () => {
    const viaFetch = await fetch(`${served.base}/unauthorized`, {
      method: "POST",
      body: new Uint8Array(OVER),
    });
    expect([viaFetch.status, await viaFetch.json()]).toEqual([
      401,
      { error: { code: "unauthenticated", message: "Unauthorized", status: 401 } },
    ]);
    const viaNode = await postWithNodeClient(`${served.base}/capped`, Buffer.alloc(OVER));
    expect([viaNode.status, JSON.parse(viaNode.text)]).toEqual([
      400,
      { error: { code: "bad_request", message: "refused: too-large", status: 400 } },
    ]);
  });

  it("drains a small rest and serves the next request on the same connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await postWithNodeClient(
        `${served.base}/capped`,
        Buffer.alloc(DRAIN_LIMIT_BYTES),
        agent,
      );
      expect(first.status).toBe(400);
      const second = await postWithNodeClient(`${served.base}/capped`, Buffer.alloc(10), agent);
      expect([second.status, JSON.parse(second.text)]).toEqual([200, { bytes: 10 }]);
      expect(second.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it("keeps serving after a closed connection", async () => {
    await fetch(`${served.base}/capped`, { method: "POST", body: new Uint8Array(OVER) });
    expect(await (await fetch(`${served.base}/ping`)).text()).toBe("pong");
  });
});
