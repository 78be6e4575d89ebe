import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awsRequestSigner } from "../src/aws-signer.js";
import { sesMailer } from "../src/ses.js";
import { describeHttpAdapterContract } from "./http-adapter-contract.js";
import { startProviderDouble } from "./provider-double.js";

const credentials = {
  accessKeyId: "AKIATESSERA0EXAMPLE",
  secretAccessKey: "sEcReT/tessera+K7MDENGbPxRfiCYEXAMPLE",
};
const from = "Notes <no-reply@notes.test>";
// SES v2's documented answers: { MessageId } on success; errors as { message } with the
// error's name in the x-amzn-ErrorType header (and in __type on some answers).
const sent = { status: 200, body: { MessageId: "0100018c-6f2e-4c1b-bd5a-000000000000-000000" } };
const sesError = (status: number, type: string, message: string) => ({
  status,
  headers: { "x-amzn-ErrorType": `${type}:http://internal.amazon.com/coral/com.amazonaws.sesv2/` },
  body: { message },
});

let double: Awaited<ReturnType<typeof startProviderDouble>>;
beforeAll(async () => {
  double = await startProviderDouble(sent);
});
afterAll(() => double.close());
beforeEach(() => double.reset());

describe("sesMailer", () => {
  it("POSTs SendEmail's documented body to /v2/email/outbound-emails, signed with SigV4 for ses", async () => {
    const mailer = sesMailer({ ...credentials, region: "eu-west-1", from, baseUrl: double.url });
    await mailer.send({
      to: "ada@example.com",
      subject: "Your sign-in link",
      text: "Open http://localhost:3000/magic_link/abc\n",
      html: '<p><a href="http://localhost:3000/magic_link/abc">Sign in</a></p>',
      idempotencyKey: "mail/42",
    });
    expect(double.requests).toHaveLength(1);
    const [request] = double.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v2/email/outbound-emails" });
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body)).toEqual({
      FromEmailAddress: '"Notes" <no-reply@notes.test>',
      Destination: { ToAddresses: ["ada@example.com"] },
      Content: {
        Simple: {
          Subject: { Data: "Your sign-in link", Charset: "UTF-8" },
          Body: {
            Text: { Data: "Open http://localhost:3000/magic_link/abc\n", Charset: "UTF-8" },
            Html: {
              Data: '<p><a href="http://localhost:3000/magic_link/abc">Sign in</a></p>',
              Charset: "UTF-8",
            },
          },
        },
      },
    });

    const date = request!.headers["x-amz-date"] as string;
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    const authorization = request!.headers.authorization as string;
    expect(authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${date.slice(0, 8)}/eu-west-1/ses/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$`,
      ),
    );
    // The signature covers what arrived: signing the received request again gives the same one.
    const again = await awsRequestSigner(credentials, "eu-west-1", "ses")(
      `${double.url}${request!.path}`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: request!.body },
      date,
    );
    expect(again.headers.get("Authorization")).toBe(authorization);
    expect(JSON.stringify(request)).not.toContain(credentials.secretAccessKey);
  });

  it("targets email.<region>.amazonaws.com without baseUrl, and sends the session token", async () => {
    const seen: Request[] = [];
    const mailer = sesMailer({
      ...credentials,
      sessionToken: "FwoGZXIvYXdzEXAMPLEtoken",
      region: "us-east-2",
      from: "no-reply@notes.test",
      fetch: async (request) => {
        seen.push(request);
        return new Response(JSON.stringify(sent.body), { status: 200 });
      },
    });
    await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi" });
    expect(seen[0]!.url).toBe("https://email.us-east-2.amazonaws.com/v2/email/outbound-emails");
    expect(seen[0]!.headers.get("X-Amz-Security-Token")).toBe("FwoGZXIvYXdzEXAMPLEtoken");
    const body = JSON.parse(await seen[0]!.text());
    expect(body.FromEmailAddress).toBe("no-reply@notes.test");
    expect(body.Content.Simple.Body).not.toHaveProperty("Html");
  });

  it("encodes a non-ASCII display name of the sender as RFC 2047, as SES asks", async () => {
    const mailer = sesMailer({
      ...credentials,
      region: "eu-west-1",
      from: "Zoë's Notes <no-reply@notes.test>",
      baseUrl: double.url,
    });
    await mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi" });
    const { FromEmailAddress } = JSON.parse(double.requests[0]!.body);
    expect(FromEmailAddress).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <no-reply@notes\.test>$/);
    const parsed = await simpleParser(`From: ${FromEmailAddress}\r\n\r\n`);
    expect(parsed.from?.value).toEqual([{ name: "Zoë's Notes", address: "no-reply@notes.test" }]);
  });

  it("refuses missing or unusable options at creation, naming them", () => {
    const build = (options: object) => () => sesMailer(options as never);
    expect(build({ ...credentials, from })).toThrow(
      new TypeError(
        "sesMailer: `region` is missing: pass the SES region, such as eu-west-1 (AWS_REGION)",
      ),
    );
    expect(build({ ...credentials, from, region: "eu-west-1.evil.test/" })).toThrow(
      /^sesMailer: `region` is not a region name/,
    );
    expect(build({ accessKeyId: "AKIA", region: "eu-west-1", from })).toThrow(
      /^sesMailer: `secretAccessKey` is missing: pass AWS_SECRET_ACCESS_KEY/,
    );
    expect(build({ secretAccessKey: "x", region: "eu-west-1", from })).toThrow(
      /^sesMailer: `accessKeyId` is missing/,
    );
  });
});

describeHttpAdapterContract(
  {
    provider: "Amazon SES",
    secret: credentials.secretAccessKey,
    refusal: {
      answer: sesError(
        400,
        "MessageRejected",
        "Email address is not verified. The following identities failed the check in region EU-WEST-1: no-reply@notes.test",
      ),
      message:
        "Email address is not verified. The following identities failed the check in region EU-WEST-1: no-reply@notes.test (MessageRejected)",
    },
    rateLimited: (retryAfter) => ({
      ...sesError(429, "TooManyRequestsException", "Maximum sending rate exceeded."),
      headers: { "Retry-After": retryAfter },
    }),
    unavailable: sesError(500, "InternalFailure", "An internal error occurred."),
    echoingSecret: sesError(
      403,
      "SignatureDoesNotMatch",
      `The request signature we calculated does not match. Secret: ${credentials.secretAccessKey}`,
    ),
    mailer: (options) => sesMailer({ ...credentials, region: "eu-west-1", from, ...options }),
  },
  () => double,
);

describe("Amazon SES error bodies", () => {
  it("reads __type when SES gives it", async () => {
    double.answerNext({
      status: 400,
      body: {
        __type: "com.amazonaws.sesv2#AccountSuspendedException",
        message: "Your account is suspended.",
      },
    });
    const mailer = sesMailer({ ...credentials, region: "eu-west-1", from, baseUrl: double.url });
    await expect(mailer.send({ to: "ada@example.com", subject: "Hi", text: "Hi" })).rejects.toThrow(
      "Amazon SES answered 400 Bad Request: Your account is suspended. (AccountSuspendedException)",
    );
  });
});
