import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resendMailer } from "../src/resend.js";
import { describeHttpAdapterContract } from "./http-adapter-contract.js";
import { startProviderDouble } from "./provider-double.js";

const apiKey = "re_test_8f3kQ2vLr9";
const from = "Notes <no-reply@notes.test>";
// Resend's documented answers: the new mail's id, and errors as { statusCode, name, message }.
const sent = { status: 200, body: { id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" } };
const resendError = (statusCode: number, name: string, message: string) => ({
  statusCode,
  name,
  message,
});

let double: Awaited<ReturnType<typeof startProviderDouble>>;
beforeAll(async () => {
  double = await startProviderDouble(sent);
});
afterAll(() => double.close());
beforeEach(() => double.reset());

describe("resendMailer", () => {
  it("POSTs /emails with the bearer key and the documented JSON body", async () => {
    const mailer = resendMailer({ apiKey, from, baseUrl: double.url });
    await mailer.send({
      to: "ada@example.com",
      subject: "Your sign-in link",
      text: "Open http://localhost:3000/magic_link/abc\n",
      html: '<p><a href="http://localhost:3000/magic_link/abc">Sign in</a></p>',
      idempotencyKey: "mail/42",
    });
    expect(double.requests).toHaveLength(1);
    const [request] = double.requests;
    expect(request).toMatchObject({ method: "POST", path: "/emails" });
    expect(request!.headers).toMatchObject({
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "idempotency-key": "mail/42",
      "user-agent": "tessera-mail",
    });
    expect(JSON.parse(request!.body)).toEqual({
      from,
      to: ["ada@example.com"],
      subject: "Your sign-in link",
      text: "Open http://localhost:3000/magic_link/abc\n",
      html: '<p><a href="http://localhost:3000/magic_link/abc">Sign in</a></p>',
    });
  });

  it("sends the same Idempotency-Key on every attempt, and none without a key", async () => {
    const mailer = resendMailer({
      apiKey,
      from,
      baseUrl: `${double.url}/`,
      retry: { baseDelayMs: 0 },
    });
    double.answerNext({
      status: 500,
      body: resendError(500, "internal_server_error", "Unexpected"),
    });
    await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi", idempotencyKey: "k-1" });
    expect(double.requests.map((request) => request.headers["idempotency-key"])).toEqual([
      "k-1",
      "k-1",
    ]);
    expect(double.requests.map((request) => request.path)).toEqual(["/emails", "/emails"]);

    double.reset();
    await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi" });
    expect(double.requests[0]!.headers["idempotency-key"]).toBeUndefined();
    expect(JSON.parse(double.requests[0]!.body)).not.toHaveProperty("html");
  });

  it("refuses missing or unusable options at creation, naming them", () => {
    const build = (options: object) => () => resendMailer(options as never);
    expect(build({ from })).toThrow(
      new TypeError("resendMailer: `apiKey` is missing: pass the Resend API key (RESEND_API_KEY)"),
    );
    expect(build({ apiKey, from: " " })).toThrow(/^resendMailer: `from` is not a non-empty string/);
    expect(build({ apiKey, from, baseUrl: "ftp://proxy.test" })).toThrow(
      /^resendMailer: `baseUrl` is not an http: or https: URL/,
    );
    expect(build({ apiKey, from, fetch: "fetch" })).toThrow(
      /^resendMailer: `fetch` is not a function/,
    );
    expect(build({ apiKey, from, retry: { attempts: 0 } })).toThrow(
      /^resendMailer: `retry.attempts` is not a whole number of at least 1/,
    );
    expect(build({ apiKey: `${apiKey}\r\nX-Evil: 1`, from })).toThrow(
      /^resendMailer: `apiKey` contains a line break/,
    );
  });
});

describeHttpAdapterContract(
  {
    provider: "Resend",
    secret: apiKey,
    refusal: {
      answer: {
        status: 422,
        body: resendError(
          422,
          "validation_error",
          "Invalid `to` field. The email address needs to follow the `email@example.com` format.",
        ),
      },
      message: "Invalid `to` field.",
    },
    rateLimited: (retryAfter) => ({
      status: 429,
      headers: { "Retry-After": retryAfter },
      body: resendError(
        429,
        "rate_limit_exceeded",
        "Too many requests. You can only make 2 requests per second.",
      ),
    }),
    unavailable: {
      status: 503,
      body: resendError(503, "service_unavailable", "Service unavailable"),
    },
    echoingSecret: {
      status: 401,
      body: resendError(401, "validation_error", `API key is invalid: ${apiKey}`),
    },
    mailer: (options) => resendMailer({ apiKey, from, ...options }),
  },
  () => double,
);
