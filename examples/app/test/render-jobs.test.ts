import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const RENDER_SECRET = "render-shared-secret";
const RENDER_TOKEN = "render-api-token";

/** The remote render service: records each submission and answers as told. */
let service: RecordingService;
const submissions = () => service.requests;
let server: TestServer;

beforeAll(async () => {
  service = await startRecordingService({ status: 202, body: '{"id":"ext-1"}' });
  server = await startTestServer({
    TRUST_PROXY: "1",
    APP_URL: "https://app.example",
    RENDER_URL: service.url,
    RENDER_SECRET,
    RENDER_TOKEN,
  });
});
afterAll(async () => {
  await server.stop();
  await service.close();
});

async function api(
  path: string,
  options: { method?: string; token?: string; json?: unknown } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": newClientAddress() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  return { status: response.status, body: await response.json() };
}

async function newUserToken(): Promise<string> {
  const credentials = {
    email: `render.${Date.now()}.${Math.random()}@example.com`,
    password: "render passphrase",
  };
  expect((await api("/api/auth/signup", { json: credentials })).status).toBe(201);
  return (await api("/api/auth/token", { json: credentials })).body.token;
}

/** The callback path the app sent to the service for the last submission. */
function lastCallbackPath(): string {
  const webhook = JSON.parse(submissions().at(-1)!.body).webhook as string;
  const url = new URL(webhook);
  expect(url.origin).toBe("https://app.example");
  return url.pathname + url.search;
}

async function callback(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("render jobs", () => {
  it("submits a signed job, then follows it through callbacks to done", async () => {
    const token = await newUserToken();
    const created = await api("/api/render_jobs", {
      token,
      json: { prompt: "a red fox", width: 640 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      prompt: "a red fox",
      width: 640,
      status: "submitted",
      external_id: "ext-1",
      progress: 0,
      attempts: 1,
    });
    expect(created.body).not.toHaveProperty("token");

    const submission = submissions().at(-1)!;
    expect(submission.headers["x-signature"]).toBe(
      createHmac("sha256", RENDER_SECRET).update(submission.body).digest("hex"),
    );
    expect(submission.headers.authorization).toBe(`Bearer ${RENDER_TOKEN}`);
    expect(submission.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(submission.body)).toMatchObject({
      id: created.body.id,
      input: { prompt: "a red fox", width: 640 },
    });

    const path = lastCallbackPath();
    expect(await callback(path, { status: "IN_PROGRESS", progress: 40 })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect((await api(`/api/render_jobs/${created.body.id}`, { token })).body).toMatchObject({
      status: "running",
      progress: 40,
    });

    const signedBody = JSON.stringify({
      status: "COMPLETED",
      output: { url: "https://cdn.example/fox.png" },
    });
    const bySignature = await fetch(`${server.url}/webhooks/render/${created.body.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-signature": createHmac("sha256", RENDER_SECRET).update(signedBody).digest("hex"),
      },
      body: signedBody,
    });
    expect(bySignature.status).toBe(200);
    const done = await api(`/api/render_jobs/${created.body.id}`, { token });
    expect(done.body).toMatchObject({
      status: "done",
      progress: 100,
      result: { url: "https://cdn.example/fox.png" },
    });

    // A late running report changes nothing.
    expect((await callback(path, { status: "running", progress: 10 })).status).toBe(200);
    expect((await api(`/api/render_jobs/${created.body.id}`, { token })).body).toMatchObject({
      status: "done",
      progress: 100,
    });
  });

  it("refuses callbacks without the job's token or a valid signature, and unknown status words", async () => {
    const token = await newUserToken();
    const created = await api("/api/render_jobs", { token, json: { prompt: "a blue whale" } });
    const path = lastCallbackPath();
    const id = created.body.id;
    expect(
      (await callback(`/webhooks/render/${id}?token=${"x".repeat(43)}`, { status: "running" }))
        .status,
    ).toBe(401);
    expect(
      (await callback(`/webhooks/render/${id}`, { status: "running" }, { "x-signature": "00" }))
        .status,
    ).toBe(401);
    const unknown = await callback(path, { status: "teleported" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("unknown status teleported");
    expect((await api(`/api/render_jobs/${id}`, { token })).body.status).toBe("submitted");
  });

  it("keeps a job queued with the service's error when it refuses the submission", async () => {
    const token = await newUserToken();
    service.answer = { status: 500, body: "render farm on fire" };
    try {
      const created = await api("/api/render_jobs", { token, json: { prompt: "a green frog" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        status: "queued",
        error: "RENDER_URL answered 500: render farm on fire",
      });
    } finally {
      service.answer = { status: 202, body: '{"id":"ext-1"}' };
    }
  });

  it("validates input and scopes every read to its owner", async () => {
    const token = await newUserToken();
    const other = await newUserToken();
    expect((await api("/api/render_jobs", { token, json: { width: 3 } })).status).toBe(400);
    expect((await api("/api/render_jobs", { json: { prompt: "x" } })).status).toBe(401);
    const created = await api("/api/render_jobs", { token, json: { prompt: "mine" } });
    expect((await api(`/api/render_jobs/${created.body.id}`, { token: other })).status).toBe(404);
    expect((await api("/api/render_jobs", { token: other })).body).toEqual([]);
    const mine = await api("/api/render_jobs?limit=1", { token });
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0].id).toBe(created.body.id);
    expect((await api("/api/render_jobs?limit=0", { token })).status).toBe(400);
  });

  it.each([
    ["limit", "0x10", "limit must be an integer from 1 to 100"],
    ["limit", "1e1", "limit must be an integer from 1 to 100"],
    ["limit", "100.0", "limit must be an integer from 1 to 100"],
    ["limit", "", "limit must be an integer from 1 to 100"],
    ["limit", " 5", "limit must be an integer from 1 to 100"],
    ["offset", "1e20", "offset must be an integer of 0 or more"],
    ["offset", "", "offset must be an integer of 0 or more"],
    ["offset", "0x10", "offset must be an integer of 0 or more"],
    ["offset", "-1", "offset must be an integer of 0 or more"],
    ["offset", "99999999999999999", "offset must be an integer of 0 or more"],
  ])(
    "answers GET /api/render_jobs?%s=%j with 400 and the list message",
    async (name, value, message) => {
      const token = await newUserToken();
      expect(await api(`/api/render_jobs?${name}=${encodeURIComponent(value)}`, { token })).toEqual(
        {
          status: 400,
          body: { error: { code: "bad_request", message, status: 400 } },
        },
      );
    },
  );

  it("pages the list with the largest offset it accepts", async () => {
    const token = await newUserToken();
    await api("/api/render_jobs", { token, json: { prompt: "only one" } });
    expect(await api("/api/render_jobs?offset=9007199254740991", { token })).toEqual({
      status: 200,
      body: [],
    });
    expect((await api("/api/render_jobs?offset=0&limit=100", { token })).body).toHaveLength(1);
  });

  it("refuses a signed callback whose output nests deeper than JSON fields may, with 400", async () => {
    const token = await newUserToken();
    const created = await api("/api/render_jobs", { token, json: { prompt: "a deep well" } });
    const signed = async (body: string) =>
      fetch(`${server.url}/webhooks/render/${created.body.id}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-signature": createHmac("sha256", RENDER_SECRET).update(body).digest("hex"),
        },
        body,
      });
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    for (const [key, levels] of [
      ["output", 20_000],
      ["result", 129],
      ["error", 20_000],
    ] as const) {
      const response = await signed(`{"status":"COMPLETED","${key}":${nested(levels)}}`);
      expect([key, response.status, await response.json()]).toEqual([
        key,
        400,
        {
          error: {
            code: "bad_request",
            message: `Failed to deserialize the JSON body into the target type: ${key}: recursion limit exceeded`,
            status: 400,
          },
        },
      ]);
    }
    expect((await api(`/api/render_jobs/${created.body.id}`, { token })).body.status).toBe(
      "submitted",
    );
    // The deepest value a json field takes is taken here too.
    expect((await signed(`{"status":"COMPLETED","output":${nested(128)}}`)).status).toBe(200);
    expect((await api(`/api/render_jobs/${created.body.id}`, { token })).body.status).toBe("done");
  });
});
