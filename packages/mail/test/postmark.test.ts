import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postmarkMailer } from "../src/postmark.js";
import { describeHttpAdapterContract } from "./http-adapter-contract.js";
import { startProviderDouble } from "./provider-double.js";

const serverToken = "pm-7c1e9f0a-2b4d-4e8a-9f31-5d6c7b8a9e01";
const from = "Notes <no-reply@notes.test>";
// Postmark's documented answers: ErrorCode 0 on success, { ErrorCode, Message } on errors.
const sent = {
  status: 200,
  body: {
    To: "ada@example.com",
    SubmittedAt: "2026-11-26T12:00:00.0000000Z",
    MessageID: "b7bc2f4a-e38e-4336-af7d-e6c392c2f817",
    ErrorCode: 0,
    Message: "OK",
  },
};
const postmarkError = (ErrorCode: number, Message: string) => ({ ErrorCode, Message });

let double: Awaited<ReturnType<typeof startProviderDouble>>;
beforeAll(async () => {
  double = await startProviderDouble(sent);
});
afterAll(() => double.close());
beforeEach(() => double.reset());

describe("postmarkMailer", () => {
  it("POSTs /email with the server token and the documented JSON body", async () => {
    const mailer = postmarkMailer({ serverToken, from, baseUrl: double.url });
    await mailer.send({
      to: "ada@example.com",
      subject: "Réinitialiser votre mot de passe",
      text: "Open http://localhost:3000/reset/abc\n",
      html: '<p><a href="http://localhost:3000/reset/abc">Reset</a></p>',
      idempotencyKey: "mail/42",
    });
    expect(double.requests).toHaveLength(1);
    const [request] = double.requests;
    expect(request).toMatchObject({ method: "POST", path: "/email" });
    expect(request!.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
      "x-postmark-server-token": serverToken,
      "user-agent": "tessera-mail",
    });
    expect(request!.headers.authorization).toBeUndefined();
    // Postmark has no idempotency key: nothing of it is sent.
    expect(JSON.parse(request!.body)).toEqual({
      From: from,
      To: "ada@example.com",
      Subject: "Réinitialiser votre mot de passe",
      TextBody: "Open http://localhost:3000/reset/abc\n",
      HtmlBody: '<p><a href="http://localhost:3000/reset/abc">Reset</a></p>',
      MessageStream: "outbound",
    });
  });

  it("sends to the message stream it is given, and no HtmlBody without HTML", async () => {
    const mailer = postmarkMailer({
      serverToken,
      from,
      baseUrl: double.url,
      messageStream: "account-mail",
    });
    await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi" });
    const body = JSON.parse(double.requests[0]!.body);
    expect(body.MessageStream).toBe("account-mail");
    expect(body).not.toHaveProperty("HtmlBody");
  });

  it("refuses missing or unusable options at creation, naming them", () => {
    const build = (options: object) => () => postmarkMailer(options as never);
    expect(build({ from })).toThrow(
      new TypeError(
        "postmarkMailer: `serverToken` is missing: pass the Postmark server token (POSTMARK_SERVER_TOKEN)",
      ),
    );
    expect(build({ serverToken })).toThrow(/^postmarkMailer: `from` is missing/);
    expect(build({ serverToken, from, messageStream: "" })).toThrow(
      /^postmarkMailer: `messageStream` is not a non-empty string/,
    );
    expect(build({ serverToken, from, retry: { timeoutMs: 0 } })).toThrow(
      /^postmarkMailer: `retry.timeoutMs` is not a usable number of milliseconds/,
    );
  });
});

describeHttpAdapterContract(
  {
    provider: "Postmark",
    secret: serverToken,
    refusal: {
      answer: {
        status: 422,
        body: postmarkError(
          406,
          "You tried to send to a recipient that has been marked as inactive.",
        ),
      },
      message: "You tried to send to a recipient that has been marked as inactive. (ErrorCode 406)",
    },
    rateLimited: (retryAfter) => ({
      status: 429,
      headers: { "Retry-After": retryAfter },
      body: postmarkError(429, "Rate limit exceeded."),
    }),
    unavailable: { status: 500, body: postmarkError(0, "Internal server error.") },
    echoingSecret: {
      status: 401,
      body: postmarkError(10, `The Server Token you provided (${serverToken}) is not valid.`),
    },
    mailer: (options) => postmarkMailer({ serverToken, from, ...options }),
  },
  () => double,
);
