import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Route, readBodyBytes } from "@tessera/http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_ALREADY_READ_MESSAGE, fastifyRoutes, toNodeHandler } from "../src/index.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Echoes the body's bytes (as hex) and what the context said, reading up to 1 KiB. */
const echo: Route = {
  method: "POST",
  path: "/echo/:name",
  handle: async (request, context) => {
    const body = await readBodyBytes(request, 1024);
    if (!body.ok) return Response.json({ refused: body.reason }, { status: 400 });
    return Response.json({
      hex: Buffer.from(body.value).toString("hex"),
      name: context.params.name,
      clientAddress: context.clientAddress,
    });
  },
};
const cookies: Route = {
  method: "GET",
  path: "/cookies",
  handle: async () => {
    const headers = new Headers();
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=2; Path=/; HttpOnly");
    return new Response("two cookies", { headers });
  },
};
const streamed: Route = {
  method: "GET",
  path: "/stream",
  handle: async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 3) return controller.close();
        sent += 1;
        controller.enqueue(new TextEncoder().encode(`part ${sent}\n`));
      },
    });
    return new Response(body, { headers: { "content-type": "text/plain" } });
  },
};
const failing: Route = {
  method: "GET",
  path: "/fail",
  handle: async () => {
    throw new Error("the database is gone");
  },
};
const routes = [echo, cookies, streamed, failing];

describe("toNodeHandler on node:http", () => {
  it("streams the exact body bytes to the route, with decoded params", async () => {
    const base = await listen(createServer(toNodeHandler(routes, { onError: () => {} })));
    const bytes = Buffer.from('{ "zen": "caf\u00e9 \u2014 ok" }\r\n\u0000', "utf8");
    const response = await fetch(`${base}/echo/caf%C3%A9`, { method: "POST", body: bytes });
    expect(await response.json()).toEqual({
      hex: bytes.toString("hex"),
      name: "café",
      clientAddress: "127.0.0.1",
    });
  });

  it("writes every Set-Cookie on its own line and streams a body", async () => {
    const base = await listen(createServer(toNodeHandler(routes)));
    const response = await fetch(`${base}/cookies`);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
    expect(await (await fetch(`${base}/stream`)).text()).toBe("part 1\npart 2\npart 3\n");
  });

  it("answers HEAD with the GET route's headers and no body", async () => {
    const base = await listen(createServer(toNodeHandler(routes)));
    const response = await fetch(`${base}/stream`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(await response.text()).toBe("");
  });

  it("refuses a Content-Length over the cap with 413 before the route runs", async () => {
    let ran = false;
    const spy: Route = {
      ...echo,
      handle: async () => {
        ran = true;
        return new Response("ran");
      },
    };
    const base = await listen(createServer(toNodeHandler([spy], { maximumBodyBytes: 16 })));
    const response = await fetch(`${base}/echo/x`, { method: "POST", body: "x".repeat(17) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "payload_too_large", message: "Request body too large", status: 413 },
    });
    expect(ran).toBe(false);
  });

  it("stops a chunked body at the cap: the route's read fails", async () => {
    const base = await listen(createServer(toNodeHandler(routes, { maximumBodyBytes: 16 })));
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("0123456789"));
        controller.close();
      },
    });
    const response = await fetch(`${base}/echo/x`, {
      method: "POST",
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ refused: "unreadable" });
  });

  it("gives the client address TRUST_PROXY hops from the right of X-Forwarded-For", async () => {
    const base = await listen(createServer(toNodeHandler(routes, { trustProxy: 1 })));
    const response = await fetch(`${base}/echo/x`, {
      method: "POST",
      headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" },
      body: "",
    });
    expect((await response.json()).clientAddress).toBe("203.0.113.9");
  });

  it("answers 404 for an unknown path and 500 (reported) for a route that throws", async () => {
    const errors: unknown[] = [];
    const base = await listen(
      createServer(toNodeHandler(routes, { onError: (error) => errors.push(error) })),
    );
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    const failed = await fetch(`${base}/fail`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: { code: "internal_error", message: "Internal server error", status: 500 },
    });
    expect(errors).toHaveLength(1);
  });

  it("answers 400 for a Host that makes no URL", async () => {
    const base = await listen(createServer(toNodeHandler(routes)));
    const { port } = new URL(base);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sent = httpRequest(
        { host: "127.0.0.1", port, path: "/cookies", headers: { host: "a b" } },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    expect(status).toBe(400);
  });

  it("stops streaming to a client that went away, and keeps serving", async () => {
    let cancelled = false;
    const endless: Route = {
      method: "GET",
      path: "/endless",
      handle: async () =>
        new Response(
          new ReadableStream({
            pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)),
            cancel: () => {
              cancelled = true;
            },
          }),
        ),
    };
    const base = await listen(createServer(toNodeHandler([endless, ...routes])));
    const aborted = new AbortController();
    const response = await fetch(`${base}/endless`, { signal: aborted.signal });
    const reader = response.body!.getReader();
    await reader.read();
    aborted.abort();
    await expect.poll(() => cancelled, { timeout: 5000 }).toBe(true);
    expect((await fetch(`${base}/cookies`)).status).toBe(200);
  });
});

describe("toNodeHandler as Express 5 middleware", () => {
  it("serves its routes and passes other paths on with next()", async () => {
    const app = express();
    app.use(toNodeHandler(routes));
    app.get("/express", (_request, response) => {
      response.send("from express");
    });
    const base = await listen(createServer(app));
    expect(await (await fetch(`${base}/express`)).text()).toBe("from express");
    expect((await fetch(`${base}/cookies`)).headers.getSetCookie()).toHaveLength(2);
  });

  it("hands a route's error to Express's error handler", async () => {
    const app = express();
    app.use(toNodeHandler(routes));
    app.use(
      (error: Error, _request: express.Request, response: express.Response, _next: unknown) => {
        response.status(503).send(`handled: ${error.message}`);
      },
    );
    const base = await listen(createServer(app));
    const response = await fetch(`${base}/fail`);
    expect([response.status, await response.text()]).toEqual([
      503,
      "handled: the database is gone",
    ]);
  });

  it("refuses clearly when a body parser already read the body", async () => {
    const app = express();
    app.use(express.json());
    app.use(toNodeHandler(routes));
    const base = await listen(createServer(app));
    const response = await fetch(`${base}/echo/x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(response.status).toBe(500);
    expect((await response.json()).error.message).toBe(BODY_ALREADY_READ_MESSAGE);
  });
});

describe("fastifyRoutes on Fastify 5", () => {
  it("streams the exact bytes to the routes while the app's own routes keep JSON parsing", async () => {
    const { default: Fastify } = await import("fastify");
    const app = Fastify();
    await app.register(fastifyRoutes(routes, { onError: () => {} }));
    app.post("/own", async (request) => ({ parsed: request.body }));
    const base = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const bytes = '{ "spaced":  "caf\u00e9" }';
      const echoed = await fetch(`${base}/echo/x`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bytes,
      });
      expect((await echoed.json()).hex).toBe(Buffer.from(bytes).toString("hex"));
      const own = await fetch(`${base}/own`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      });
      expect(await own.json()).toEqual({ parsed: { a: 1 } });
      expect((await fetch(`${base}/cookies`)).headers.getSetCookie()).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});

describe("toNodeHandler leaves the app's own paths to the app", () => {
  it("passes a request for another path on untouched: parsed bodies and large bodies included", async () => {
    const app = express();
    app.use(express.json());
    app.use(toNodeHandler(routes, { maximumBodyBytes: 16 }));
    app.post("/own", (request, response) => {
      response.json({ parsed: request.body });
    });
    const base = await listen(createServer(app));
    const parsed = await fetch(`${base}/own`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ note: "x".repeat(40) }),
    });
    expect(parsed.status).toBe(200);
    expect(await parsed.json()).toEqual({ parsed: { note: "x".repeat(40) } });
    // Under the cap, a body a parser already read is the app's business too, not a 500.
    const small = await fetch(`${base}/own`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await small.json()).toEqual({ parsed: { a: 1 } });
  });
});
