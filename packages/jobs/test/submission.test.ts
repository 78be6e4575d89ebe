import { describe, expect, it } from "vitest";
import { jobCallbackToken, jobTokenKeys } from "../src/index.js";
import { closedPortUrl } from "./fake-service.js";
import {
  APP_URL,
  SECRET_KEY_BASE,
  SERVICE_SECRET,
  SERVICE_TOKEN,
  setupRunner,
  T0,
} from "./runner-setup.js";

describe("starting a job", () => {
  it("inserts it, POSTs the signed body with the headers, and marks it submitted", async () => {
    const { runner, service, store } = await setupRunner();
    const job = await runner.start(7, { prompt: "a red fox", width: 512 });

    expect(service.received).toHaveLength(1);
    const [request] = service.received;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/jobs");
    expect(request!.signatureValid).toBe(true);
    expect(request!.headers["x-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
    const token = jobCallbackToken(jobTokenKeys({ current: SECRET_KEY_BASE }).current, "render", {
      id: job.id,
      createdAt: T0,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(request!.body)).toEqual({
      id: job.id,
      input: { prompt: "a red fox", width: 512 },
      webhook: `${APP_URL}/webhooks/render/${job.id}?token=${token}`,
    });
    expect(runner.callbackUrl(job)).toBe(`${APP_URL}/webhooks/render/${job.id}?token=${token}`);

    expect(job).toEqual({
      id: 1,
      userId: 7,
      input: { prompt: "a red fox", width: 512 },
      status: "submitted",
      progress: 0,
      externalId: "ext-1",
      result: null,
      error: null,
      attempts: 1,
      lastAttemptAt: T0,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store.find(job.id)).toEqual(job);
  });

  it("sends no Authorization header without a service token, and takes a numeric id as text", async () => {
    const { runner, service } = await setupRunner({
      answer: () => ({ status: 200, body: '{"id":42,"state":"IN_QUEUE"}' }),
      overrides: { bearerToken: undefined },
    });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(service.received[0]!.headers.authorization).toBeUndefined();
    expect(JSON.parse(service.received[0]!.body).input).toEqual({ prompt: "p", width: null });
    expect(job.status).toBe("submitted");
    expect(job.externalId).toBe("42");
  });

  it("keeps a job queued with the first 200 characters of a non-2xx answer", async () => {
    const answerBody = `{"error":"${"x".repeat(300)}"}`;
    const { runner } = await setupRunner({ answer: () => ({ status: 500, body: answerBody }) });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(1);
    expect(job.lastAttemptAt).toBe(T0);
    expect(job.error).toBe(`RENDER_URL answered 500: ${answerBody.slice(0, 200)}`);
  });

  it("stores no external id holding a NUL, and a quoted answer's NUL as U+FFFD", async () => {
    // Both are stored as text, where PostgreSQL refuses a NUL and SQLite keeps it.
    let answer = { status: 202, body: '{"id":"ext\\u00001"}' };
    const { runner } = await setupRunner({ answer: () => answer });
    const accepted = await runner.start(1, { prompt: "p", width: null });
    expect(accepted).toMatchObject({ status: "submitted", externalId: null });
    answer = { status: 500, body: "farm\u0000fire" };
    const refused = await runner.start(1, { prompt: "q", width: null });
    expect(refused).toMatchObject({
      status: "queued",
      error: "RENDER_URL answered 500: farm\uFFFDfire",
    });
  });

  it("keeps a job queued when the service never answers", async () => {
    const { runner, service } = await setupRunner({ answer: () => "hang" });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(service.received).toHaveLength(1);
    expect(job.status).toBe("queued");
    expect(job.error).toBe("RENDER_URL did not answer within 300 ms");
  });

  it("keeps a job queued when the connection is refused", async () => {
    const { runner } = await setupRunner({ overrides: { url: await closedPortUrl() } });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(job.status).toBe("queued");
    expect(job.error).toBe("RENDER_URL refused the connection");
  });

  it("marks a job submitted on any 2xx, with no external id when the answer has none", async () => {
    const { runner } = await setupRunner({ answer: () => ({ status: 200, body: "accepted" }) });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(job.status).toBe("submitted");
    expect(job.externalId).toBeNull();
    expect(job.error).toBeNull();
  });

  it("runs the change hook for the creation and for the submission", async () => {
    const { runner, changes } = await setupRunner();
    await runner.start(1, { prompt: "p", width: null });
    expect(
      changes.map((change) => [change.cause, change.previous?.status, change.job.status]),
    ).toEqual([
      ["start", undefined, "queued"],
      ["submission", "queued", "submitted"],
    ]);
  });

  it("refuses input that does not fit the definition, before anything is stored or sent", async () => {
    const { runner, service, changes } = await setupRunner();
    await expect(runner.start(1, { prompt: "  ", width: null })).rejects.toThrow(
      /invalid input for job render: \{"prompt":\["can't be blank"\]\}/,
    );
    await expect(runner.start(1, { prompt: "p", width: 1.5 })).rejects.toThrow(TypeError);
    expect(service.received).toHaveLength(0);
    expect(changes).toHaveLength(0);
  });

  it("refuses unusable settings at creation", async () => {
    await expect(setupRunner({ overrides: { timeoutMs: 60_000 } })).rejects.toThrow(
      /below the retry age/,
    );
    await expect(setupRunner({ overrides: { appUrl: "app.example" } })).rejects.toThrow(
      /APP_URL must be an absolute http or https URL/,
    );
    await expect(setupRunner({ overrides: { url: "ftp://x" } })).rejects.toThrow(/RENDER_URL/);
    await expect(setupRunner({ overrides: { secret: "" } })).rejects.toThrow(
      new RangeError("RENDER_SECRET must not be empty"),
    );
    await expect(
      setupRunner({ overrides: { secret: `${SERVICE_SECRET}\n`, verifySignature: undefined } }),
    ).rejects.toThrow(new RangeError("RENDER_SECRET must not start or end with whitespace"));
  });
});
