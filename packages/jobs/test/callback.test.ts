import { createHmac } from "node:crypto";
import { MAX_JSON_DEPTH } from "@tessera/fields";
import { describe, expect, it } from "vitest";
import { createJobRunner, jobCallbackToken, jobTokenKeys, MemoryJobStore } from "../src/index.js";
import { callbackContext } from "./callback-context.js";
import {
  answerOf,
  callback,
  MINUTE,
  render,
  SECRET_KEY_BASE,
  SERVICE_SECRET,
  setupRunner,
  T0,
} from "./runner-setup.js";

const sign = (body: string, secret = SERVICE_SECRET) =>
  createHmac("sha256", secret).update(body).digest("hex");

/** A started, submitted job and ways to call back for it. */
async function submittedJob() {
  const setup = await setupRunner();
  const job = await setup.runner.start(1, { prompt: "a red fox", width: null });
  const address = new URL(setup.runner.callbackUrl(job));
  const path = `${address.pathname}${address.search}`;
  const byToken = (body: unknown) =>
    setup.runner.handleCallback(
      callback(path, JSON.stringify(body)),
      callbackContext(String(job.id)),
    );
  const bySignature = (body: unknown) => {
    const text = JSON.stringify(body);
    return setup.runner.handleCallback(
      callback(`/webhooks/render/${job.id}`, text, { "X-Signature": sign(text) }),
      callbackContext(String(job.id)),
    );
  };
  setup.changes.length = 0;
  return { ...setup, job, path, byToken, bySignature };
}

describe("the job callback", () => {
  it("moves a job submitted → running with progress → done with its result", async () => {
    const { store, job, byToken, bySignature, time } = await submittedJob();
    time.now = T0 + MINUTE;
    expect(await answerOf(await byToken({ status: "IN_PROGRESS", progress: 30 }))).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await store.find(job.id)).toMatchObject({ status: "running", progress: 30 });

    expect((await bySignature({ status: "running", progress: 60 })).status).toBe(200);
    expect(await store.find(job.id)).toMatchObject({ status: "running", progress: 60 });

    time.now = T0 + 2 * MINUTE;
    const output = { url: "https://cdn.example/fox.png", size: [512, 512] };
    expect((await bySignature({ status: "COMPLETED", output })).status).toBe(200);
    expect(await store.find(job.id)).toEqual({
      ...job,
      status: "done",
      progress: 100,
      result: JSON.stringify(output),
      updatedAt: T0 + 2 * MINUTE,
    });
  });

  it("takes `result` when there is no `output`", async () => {
    const { store, job, byToken } = await submittedJob();
    await byToken({ status: "succeeded", result: [1, 2, 3] });
    expect(await store.find(job.id)).toMatchObject({ status: "done", result: "[1,2,3]" });
  });

  it("stores a failure's error text, or says which word the service reported", async () => {
    const first = await submittedJob();
    await first.byToken({ status: "failed", error: "out of memory" });
    expect(await first.store.find(first.job.id)).toMatchObject({
      status: "failed",
      error: "out of memory",
      progress: 0,
    });
    const second = await submittedJob();
    await second.bySignature({ status: "CANCELLED" });
    expect(await second.store.find(second.job.id)).toMatchObject({
      status: "failed",
      error: "the service reported CANCELLED",
    });
  });

  it("ignores a late running event after done, and answers it ok", async () => {
    const { store, job, byToken, changes } = await submittedJob();
    await byToken({ status: "done", output: "fox.png" });
    const done = await store.find(job.id);
    expect(await answerOf(await byToken({ status: "running", progress: 10 }))).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await byToken({ status: "failed", error: "late" }).then((r) => r.status)).toBe(200);
    expect(await store.find(job.id)).toEqual(done);
    expect(changes.map((change) => change.job.status)).toEqual(["done"]);
  });

  it("never lowers progress, and runs the hook once per actual change", async () => {
    const { store, job, byToken, changes } = await submittedJob();
    await byToken({ status: "running", progress: 50 });
    await byToken({ status: "running", progress: 20 });
    await byToken({ status: "running", progress: 50 });
    await byToken({ status: "IN_QUEUE" });
    await byToken({ status: "running", progress: 70 });
    expect(await store.find(job.id)).toMatchObject({ status: "running", progress: 70 });
    expect(changes.map((change) => [change.cause, change.job.status, change.job.progress])).toEqual(
      [
        ["callback", "running", 50],
        ["callback", "running", 70],
      ],
    );
    expect(changes[1]!.previous).toMatchObject({ status: "running", progress: 50 });
  });

  it("counts an event that changes nothing as news for a running job", async () => {
    const { store, job, byToken, time, changes } = await submittedJob();
    await byToken({ status: "running", progress: 40 });
    time.now = T0 + 50 * MINUTE;
    await byToken({ status: "running", progress: 40 });
    expect(await store.find(job.id)).toMatchObject({
      status: "running",
      progress: 40,
      updatedAt: T0 + 50 * MINUTE,
    });
    expect(changes).toHaveLength(1);
  });

  it("answers 401 for a wrong token, a wrong signature or no credentials", async () => {
    const { store, job, path, runner } = await submittedJob();
    const body = JSON.stringify({ status: "done" });
    const wrongToken = path.replace(/token=[^&]+/, `token=${"A".repeat(43)}`);
    const attempts = [
      callback(wrongToken, body),
      callback(`/webhooks/render/${job.id}`, body, { "X-Signature": sign(body, "another secret") }),
      callback(`/webhooks/render/${job.id}`, body, { "X-Signature": sign(`${body} `) }),
      callback(`/webhooks/render/${job.id}`, body),
    ];
    for (const request of attempts) {
      expect(
        await answerOf(await runner.handleCallback(request, callbackContext(String(job.id)))),
      ).toEqual({
        status: 401,
        body: { error: { code: "invalid_signature", message: "Unauthorized", status: 401 } },
      });
    }
    expect((await store.find(job.id))!.status).toBe("submitted");
  });

  it("refuses another job's token", async () => {
    const { runner, path, store } = await submittedJob();
    const other = await runner.start(1, { prompt: "other", width: null });
    const response = await runner.handleCallback(
      callback(path, JSON.stringify({ status: "done" })),
      callbackContext(String(other.id)),
    );
    expect(response.status).toBe(401);
    expect((await store.find(other.id))!.status).toBe("submitted");
  });

  it("answers 401 for a missing job without a signature, and 404 with one", async () => {
    const { runner, path } = await submittedJob();
    const body = JSON.stringify({ status: "done" });
    for (const id of ["99", "abc", "0", "99999999999999999999"]) {
      const unsigned = await runner.handleCallback(callback(path, body), callbackContext(id));
      expect(unsigned.status).toBe(401);
      const signed = await runner.handleCallback(
        callback(`/webhooks/render/${id}`, body, { "X-Signature": sign(body) }),
        callbackContext(id),
      );
      expect(await answerOf(signed)).toEqual({
        status: 404,
        body: { error: { code: "not_found", message: "Not found", status: 404 } },
      });
    }
  });

  it("takes the signature formats of the verifier it is given: sha256=, upper-case hex, base64", async () => {
    const { runner, job, store } = await submittedJob();
    const body = JSON.stringify({ status: "running", progress: 10 });
    const hex = sign(body);
    for (const signature of [
      `sha256=${hex}`,
      hex.toUpperCase(),
      Buffer.from(hex, "hex").toString("base64"),
    ]) {
      const response = await runner.handleCallback(
        callback(`/webhooks/render/${job.id}`, body, { "X-Signature": signature }),
        callbackContext(String(job.id)),
      );
      expect(response.status).toBe(200);
    }
    expect(await store.find(job.id)).toMatchObject({ status: "running", progress: 10 });
  });

  it("hands its verifier the raw request: headers, exact bytes and address", async () => {
    const seen: { signature: string | null; body: string; url: string }[] = [];
    const { runner, store } = await setupRunner({
      overrides: {
        verifySignature: (delivery) => {
          seen.push({
            signature: delivery.headers.get("x-service-signature"),
            body: new TextDecoder().decode(delivery.body),
            url: delivery.url,
          });
          return { ok: delivery.headers.get("x-service-signature") === "trusted" };
        },
      },
    });
    const job = await runner.start(1, { prompt: "a red fox", width: null });
    const body = '{ "status": "running" }';
    const signed = await runner.handleCallback(
      callback(`/webhooks/render/${job.id}`, body, { "X-Service-Signature": "trusted" }),
      callbackContext(String(job.id)),
    );
    expect(signed.status).toBe(200);
    expect(seen).toEqual([
      { signature: "trusted", body, url: `https://app.example/webhooks/render/${job.id}` },
    ]);
    const forged = await runner.handleCallback(
      callback(`/webhooks/render/${job.id}`, '{"status":"done"}', { "X-Service-Signature": "no" }),
      callbackContext(String(job.id)),
    );
    expect(forged.status).toBe(401);
    expect((await store.find(job.id))!.status).toBe("running");
  });

  it("without a signature verifier, takes a callback by its token alone", async () => {
    const { runner, store } = await setupRunner({ overrides: { verifySignature: undefined } });
    const job = await runner.start(1, { prompt: "a red fox", width: null });
    const body = JSON.stringify({ status: "running" });
    const signedOnly = await runner.handleCallback(
      callback(`/webhooks/render/${job.id}`, body, { "X-Signature": sign(body) }),
      callbackContext(String(job.id)),
    );
    expect(await answerOf(signedOnly)).toEqual({
      status: 401,
      body: { error: { code: "invalid_signature", message: "Unauthorized", status: 401 } },
    });
    const address = new URL(runner.callbackUrl(job));
    const byToken = await runner.handleCallback(
      callback(`${address.pathname}${address.search}`, body),
      callbackContext(String(job.id)),
    );
    expect(byToken.status).toBe(200);
    expect((await store.find(job.id))!.status).toBe("running");
  });

  it("answers 400 for an unknown status, a body that is not JSON, or bad progress", async () => {
    const { runner, path, job, store } = await submittedJob();
    const send = (body: string) =>
      runner.handleCallback(callback(path, body), callbackContext(String(job.id)));
    expect(await answerOf(await send('{"status":"paused"}'))).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "unknown status paused", status: 400 } },
    });
    const prefix = "Failed to deserialize the JSON body into the target type: ";
    const refusals: [string, string][] = [
      ["status: done", "the body is not valid JSON"],
      ['["done"]', "invalid type: expected a JSON object"],
      ['{"progress":5}', "missing field `status`"],
      ['{"status":3}', "status: invalid type: expected a string"],
      ...["101", "-1", "1.5", '"50"', "true"].map((progress): [string, string] => [
        `{"status":"running","progress":${progress}}`,
        "progress: invalid value: expected an integer from 0 to 100",
      ]),
    ];
    for (const [body, reason] of refusals) {
      expect(await answerOf(await send(body))).toEqual({
        status: 400,
        body: { error: { code: "bad_request", message: `${prefix}${reason}`, status: 400 } },
      });
    }
    expect(await store.find(job.id)).toMatchObject({ status: "submitted", progress: 0 });
  });

  it("answers 400 for an output, result or error nested deeper than json fields take (MAX_JSON_DEPTH)", async () => {
    const { runner, store, job } = await submittedJob();
    const signed = (text: string) =>
      runner.handleCallback(
        callback(`/webhooks/render/${job.id}`, text, { "X-Signature": sign(text) }),
        callbackContext(String(job.id)),
      );
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    for (const [key, levels] of [
      ["output", 20_000],
      ["result", MAX_JSON_DEPTH + 1],
      ["error", 20_000],
    ] as const) {
      expect(await answerOf(await signed(`{"status":"done","${key}":${nested(levels)}}`))).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: `Failed to deserialize the JSON body into the target type: ${key}: recursion limit exceeded`,
            status: 400,
          },
        },
      });
    }
    expect(await store.find(job.id)).toMatchObject({ status: "submitted", result: null });
    expect((await signed(`{"status":"done","output":${nested(MAX_JSON_DEPTH)}}`)).status).toBe(200);
    expect(await store.find(job.id)).toMatchObject({ status: "done" });
  });

  it("answers 400 for an output, result or error holding a NUL or a lone surrogate, at any depth", async () => {
    // Kept as text: PostgreSQL refuses a NUL there (and the escape \u0000 in a jsonb check),
    // SQLite keeps it; refused on every engine alike.
    const { byToken, store, job } = await submittedJob();
    for (const [key, body, words] of [
      ["error", { status: "failed", error: "out of \u0000memory" }, "NUL character in string"],
      ["error", { status: "failed", error: { message: ["\u0000"] } }, "NUL character in string"],
      ["output", { status: "done", output: { "url\u0000": "x" } }, "NUL character in string"],
      ["result", { status: "done", result: [[["a\u0000"]]] }, "NUL character in string"],
      ["output", { status: "done", output: { note: "\ud800" } }, "lone surrogate in string"],
    ] as const) {
      expect(await answerOf(await byToken(body))).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: `Failed to deserialize the JSON body into the target type: ${key}: invalid value: ${words}`,
            status: 400,
          },
        },
      });
    }
    expect(await store.find(job.id)).toMatchObject({
      status: "submitted",
      result: null,
      error: null,
    });
  });

  it("authenticates before reading the body: garbage without credentials is 401", async () => {
    const { runner, job } = await submittedJob();
    const response = await runner.handleCallback(
      callback(`/webhooks/render/${job.id}`, "not json"),
      callbackContext(String(job.id)),
    );
    expect(response.status).toBe(401);
  });

  it("answers 413 for a body over the cap", async () => {
    const { path, job } = await submittedJob();
    const small = createJobRunner({
      definition: render,
      store: new MemoryJobStore(render),
      url: "http://127.0.0.1:9/jobs",
      secret: SERVICE_SECRET,
      appUrl: "https://app.example",
      tokenKeys: jobTokenKeys({ current: SECRET_KEY_BASE }),
      maxBodyBytes: 16,
    });
    const response = await small.handleCallback(
      callback(path, JSON.stringify({ status: "done", output: "x".repeat(100) })),
      callbackContext(String(job.id)),
    );
    expect(await answerOf(response)).toEqual({
      status: 413,
      body: {
        error: {
          code: "payload_too_large",
          message: "Request body is too large (maximum is 16 bytes)",
          status: 413,
        },
      },
    });
  });

  it("still accepts tokens made before SECRET_KEY_BASE was rotated", async () => {
    const { store, job } = await submittedJob();
    const rotated = createJobRunner({
      definition: render,
      store,
      url: "http://127.0.0.1:9/jobs",
      secret: SERVICE_SECRET,
      appUrl: "https://app.example",
      tokenKeys: jobTokenKeys({ current: `${SECRET_KEY_BASE} rotated`, previous: SECRET_KEY_BASE }),
    });
    const oldToken = jobCallbackToken(
      jobTokenKeys({ current: SECRET_KEY_BASE }).current,
      "render",
      job,
    );
    expect(rotated.callbackUrl(job)).not.toContain(oldToken);
    const response = await rotated.handleCallback(
      callback(`/webhooks/render/${job.id}?token=${oldToken}`, '{"status":"running"}'),
      callbackContext(String(job.id)),
    );
    expect(response.status).toBe(200);
    expect((await store.find(job.id))!.status).toBe("running");
  });

  it("lets a callback move a job still queued: the service has it after all", async () => {
    const { runner, store, changes } = await setupRunner({ answer: () => "hang" });
    const job = await runner.start(1, { prompt: "p", width: null });
    expect(job).toMatchObject({
      status: "queued",
      error: "RENDER_URL did not answer within 300 ms",
    });
    const address = new URL(runner.callbackUrl(job));
    await runner.handleCallback(
      callback(`${address.pathname}${address.search}`, '{"status":"running","progress":5}'),
      callbackContext(String(job.id)),
    );
    expect(await store.find(job.id)).toMatchObject({ status: "running", progress: 5, error: null });
    expect(changes.at(-1)).toMatchObject({ cause: "callback", previous: { status: "queued" } });
  });
});
