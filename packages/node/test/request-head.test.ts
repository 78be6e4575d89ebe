import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { toRequest } from "../src/index.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What a route learns from `toRequest`: method, URL and the headers a session reads. */
function described(request: Request) {
  return {
    method: request.method,
    url: request.url,
    cookie: request.headers.get("cookie"),
    tags: request.headers.get("x-tag"),
  };
}

describe("toRequest", () => {
  it("gives an Express route the method, the full URL and every header, leaving the body unread", async () => {
    const app = express();
    app.post("/mine/:id", (request, response, next) => {
      response.locals.head = described(toRequest(request));
      next();
    });
    // A body parser after toRequest still gets the body.
    app.post("/mine/:id", express.json(), (request, response) => {
      response.json({ head: response.locals.head, body: request.body });
    });
    const url = await listen(createServer(app));
    const answer = await fetch(`${url}/mine/7?sort=new`, {
      method: "POST",
      headers: [
        ["content-type", "application/json"],
        ["cookie", "_tessera_session=abc"],
        ["x-tag", "one"],
        ["x-tag", "two"],
      ],
      body: JSON.stringify({ note: "kept" }),
    });
    expect(await answer.json()).toEqual({
      head: {
        method: "POST",
        url: `${url}/mine/7?sort=new`,
        cookie: "_tessera_session=abc",
        tags: "one, two",
      },
      body: { note: "kept" },
    });
  });

  it("reads Fastify's request.raw", async () => {
    const app = Fastify();
    app.get("/mine", async (request) => described(toRequest(request.raw)));
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const answer = await fetch(`${address}/mine`, { headers: { cookie: "a=1" } });
      expect(await answer.json()).toEqual({
        method: "GET",
        url: `${address}/mine`,
        cookie: "a=1",
        tags: null,
      });
    } finally {
      await app.close();
    }
  });

  it("falls back to http://localhost/ for a Host that makes no URL", () => {
    const incoming = {
      method: "GET",
      url: "/mine",
      headers: { host: "bad host name", cookie: "a=1" },
      socket: {},
    } as unknown as Parameters<typeof toRequest>[0];
    const request = toRequest(incoming);
    expect(request.url).toBe("http://localhost/");
    expect(request.headers.get("cookie")).toBe("a=1");
  });
});
