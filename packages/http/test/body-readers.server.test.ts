import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFormBody, readJsonBody } from "../src/index.js";

// A real HTTP server on 127.0.0.1: the readers see the Request that @hono/node-server builds
// from a socket, with the body streaming in as the client sends it.
let server: ReturnType<typeof serve>;
let port: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve(
      {
        hostname: "127.0.0.1",
        port: 0,
        fetch: async (request) => {
          const path = new URL(request.url).pathname;
          const result =
            path === "/form"
              ? await readFormBody(request, { maximumBytes: 1000 })
              : await readJsonBody(request, { maximumBytes: 1000, expect: "any" });
          if (!result.ok) return result.response;
          const value = result.value instanceof URLSearchParams ? [...result.value] : result.value;
          return Response.json({ value });
        },
      },
      (info: AddressInfo) => {
        port = info.port;
        resolve();
      },
    );
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

function readAnswer(response: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () =>
      resolve({
        status: response.statusCode ?? 0,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      }),
    );
    response.on("error", reject);
  });
}

/**
 * Sends headers, then `chunks` one at a time, and resolves with the answer as soon as it comes,
 * even if the body was never finished: the point of an early refusal.
 */
function send(
  path: string,
  headers: Record<string, string>,
  chunks: readonly string[],
  finish = true,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers });
    outgoing.on("response", (response) => {
      readAnswer(response).then(resolve, reject);
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // The server may close the socket after answering while we still write; that is fine.
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    for (const chunk of chunks) outgoing.write(chunk);
    if (finish) outgoing.end();
  });
}

const JSON_TYPE = { "content-type": "application/json" };
const prefix = "Failed to deserialize the JSON body into the target type: ";

describe("body readers behind a real HTTP server", () => {
  it("read a chunked JSON body", async () => {
    const answer = await send("/json", JSON_TYPE, ['{"name":', '"Zoë",', '"n":[1,2]}']);
    expect(answer).toEqual({ status: 200, body: { value: { name: "Zoë", n: [1, 2] } } });
  });

  it("refuse a chunked body (no Content-Length) that grows past the cap", async () => {
    const chunks = Array.from({ length: 50 }, () => " ".repeat(100));
    const answer = await send("/json", JSON_TYPE, ["[", ...chunks, "]"]);
    expect(answer).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: `${prefix}the body is larger than 1000 bytes`,
          status: 400,
        },
      },
    });
  });

  it("refuse at once when Content-Length exceeds the cap, before the body is sent", async () => {
    const answer = await send(
      "/json",
      { ...JSON_TYPE, "content-length": "10000000" },
      ["{"],
      false,
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: `${prefix}the body is larger than 1000 bytes`,
          status: 400,
        },
      },
    });
  });

  it("read a body of exactly the cap whose Content-Length the parser frames, sent in pieces", async () => {
    const body = `[${'"x",'.repeat(199)}"y"]`.padEnd(1000, " ");
    const pieces = [body.slice(0, 300), body.slice(300, 700), body.slice(700)];
    const answer = await send("/json", { ...JSON_TYPE, "content-length": "1000" }, pieces);
    expect(answer.status).toBe(200);
    expect((answer.body as { value: string[] }).value).toHaveLength(200);
  });

  it("survive a client that leaves before the length it declared, and answer the next", async () => {
    await new Promise<void>((resolve) => {
      const outgoing = httpRequest({
        host: "127.0.0.1",
        port,
        path: "/json",
        method: "POST",
        headers: { ...JSON_TYPE, "content-length": "900" },
      });
      outgoing.on("error", () => resolve());
      outgoing.write('{"half": "', () => setTimeout(() => outgoing.destroy(), 50));
      outgoing.on("close", () => resolve());
    });
    expect(await send("/json", JSON_TYPE, ['{"next":', "true}"])).toEqual({
      status: 200,
      body: { value: { next: true } },
    });
  });

  it("read a form and refuse a JSON Content-Type on the form route", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(await send("/form", form, ["email=a%40example.com&", "remember_me=1"])).toEqual({
      status: 200,
      body: {
        value: [
          ["email", "a@example.com"],
          ["remember_me", "1"],
        ],
      },
    });
    const refused = await send("/form", JSON_TYPE, ["{}"]);
    expect(refused.status).toBe(400);
  });
});
