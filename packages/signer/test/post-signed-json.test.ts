import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postSignedJson, signBody } from "../src/index.js";

const secret = "render shared secret";
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real HTTP server on 127.0.0.1 that records each request and answers with `respond`. */
async function serve(
  respond: (request: Received, response: ServerResponse) => void,
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = { headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") };
    received.push(request);
    respond(request, outgoing);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`, received };
}

const job = {
  id: 17,
  input: { prompt: "a lighthouse at dusk", width: 512 },
  webhook: "https://app.example/webhooks/render/17?token=t0k3n",
};

describe("postSignedJson", () => {
  it("posts JSON signed in X-Signature with the bearer token, and returns a 2xx answer", async () => {
    const { url, received } = await serve((_request, response) => {
      response.writeHead(201, { "Content-Type": "application/json" }).end('{"id":"ext_81"}');
    });
    const result = await postSignedJson(url, job, { secret, bearerToken: "render-token" });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.status).toBe(201);
    expect(result.value.body).toBe('{"id":"ext_81"}');
    expect(result.value.headers.get("content-type")).toBe("application/json");
    const [request] = received;
    expect(request!.body).toBe(JSON.stringify(job));
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-signature"]).toBe(signBody(request!.body, secret));
    expect(request!.headers.authorization).toBe("Bearer render-token");
  });

  it("sends no Authorization header without a token", async () => {
    const { url, received } = await serve((_request, response) => response.writeHead(204).end());
    for (const bearerToken of [undefined, ""]) {
      const result = await postSignedJson(url, job, { secret, bearerToken });
      expect(result).toMatchObject({ ok: true, value: { status: 204, body: "" } });
    }
    expect(received.map((request) => request.headers.authorization)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("reports a non-2xx answer with its status and body", async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(503, { "Content-Type": "text/plain" }).end("GPU pool exhausted");
    });
    expect(await postSignedJson(url, job, { secret })).toEqual({
      ok: false,
      reason: "non-2xx",
      status: 503,
      body: "GPU pool exhausted",
      message: "answered 503",
    });
  });

  it("does not follow a redirect with the signed body and token", async () => {
    const target = await serve((_request, response) => response.writeHead(200).end("{}"));
    const { url } = await serve((_request, response) => {
      response.writeHead(307, { Location: target.url }).end();
    });
    expect(await postSignedJson(url, job, { secret, bearerToken: "render-token" })).toMatchObject({
      ok: false,
      reason: "non-2xx",
      status: 307,
    });
    expect(target.received).toHaveLength(0);
  });

  it("gives up after the timeout when no answer comes", async () => {
    const { url, received } = await serve(() => {
      // Never answers.
    });
    expect(await postSignedJson(url, job, { secret, timeoutMs: 50 })).toEqual({
      ok: false,
      reason: "timeout",
      message: "no answer within 50 ms",
    });
    expect(received).toHaveLength(1);
  });

  it("reports a refused connection", async () => {
    const { url } = await serve(() => {});
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const result = await postSignedJson(url, job, { secret });
    expect(result).toMatchObject({ ok: false, reason: "connection-refused" });
  });

  it("reads at most maxResponseBytes of an answer", async () => {
    const big = "x".repeat(5000);
    const { url } = await serve((request, response) => {
      response.writeHead(request.headers["x-want"] === "error" ? 500 : 200).end(big);
    });
    expect(await postSignedJson(url, job, { secret, maxResponseBytes: 1024 })).toEqual({
      ok: false,
      reason: "response-too-large",
      message: "answer exceeds 1024 bytes",
    });
    const failing = await postSignedJson(url, job, {
      secret,
      maxResponseBytes: 1024,
      fetch: (request) => {
        request.headers.set("x-want", "error");
        return fetch(request);
      },
    });
    expect(failing).toMatchObject({
      ok: false,
      reason: "non-2xx",
      status: 500,
      body: "x".repeat(1024),
    });
  });

  it("uses an injected fetch, and reports its failures as network errors", async () => {
    const seen: Request[] = [];
    const answered = await postSignedJson(new URL("https://render.example/v1/jobs"), job, {
      secret,
      fetch: async (request) => {
        seen.push(request);
        return new Response('{"id":"ext_1"}', { status: 200 });
      },
    });
    expect(answered).toMatchObject({ ok: true, value: { status: 200, body: '{"id":"ext_1"}' } });
    expect(seen[0]!.method).toBe("POST");
    expect(seen[0]!.url).toBe("https://render.example/v1/jobs");
    expect(seen[0]!.headers.get("x-signature")).toBe(signBody(JSON.stringify(job), secret));

    const broken = await postSignedJson("https://render.example/v1/jobs", job, {
      secret,
      fetch: async () => {
        throw new TypeError("getaddrinfo ENOTFOUND render.example");
      },
    });
    expect(broken).toEqual({
      ok: false,
      reason: "network-error",
      message: "getaddrinfo ENOTFOUND render.example",
    });
  });

  it("throws for programmer error: no JSON form or an empty secret", async () => {
    await expect(postSignedJson("https://render.example", undefined, { secret })).rejects.toThrow(
      TypeError,
    );
    await expect(postSignedJson("https://render.example", job, { secret: "" })).rejects.toThrow(
      RangeError,
    );
  });
});
