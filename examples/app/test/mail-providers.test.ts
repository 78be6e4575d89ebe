// The app sending account mail through each HTTP provider (MAIL_ADAPTER=resend, postmark, ses),
// with MAIL_API_URL pointing at a double on 127.0.0.1 that records what the provider would get.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedRequest,
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { Browser, linkIn } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const PASSWORD = "correct horse battery";
const FROM = "Tessera <no-reply@app.example>";

/** What each provider's request holds, read the provider's way. */
interface ProviderCase {
  readonly adapter: string;
  readonly settings: Record<string, string>;
  readonly path: string;
  /** Whether the request carries the provider's key in its auth header. */
  authorized(request: RecordedRequest): boolean;
  /** The mail's recipient, subject, text and HTML as the request's body carries them. */
  mail(body: unknown): { to: string; subject: string; text: string; html: string };
}

const providers: ProviderCase[] = [
  {
    adapter: "resend",
    settings: { RESEND_API_KEY: "re_test_4f9a2c" },
    path: "/emails",
    authorized: (request) => request.headers.authorization === "Bearer re_test_4f9a2c",
    mail: (body) => {
      const mail = body as { to: string[]; subject: string; text: string; html: string };
      return { ...mail, to: mail.to.join(",") };
    },
  },
  {
    adapter: "postmark",
    settings: { POSTMARK_SERVER_TOKEN: "pm-server-token-7d1e" },
    path: "/email",
    authorized: (request) => request.headers["x-postmark-server-token"] === "pm-server-token-7d1e",
    mail: (body) => {
      const mail = body as { To: string; Subject: string; TextBody: string; HtmlBody: string };
      return { to: mail.To, subject: mail.Subject, text: mail.TextBody, html: mail.HtmlBody };
    },
  },
  {
    adapter: "ses",
    settings: {
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    },
    path: "/v2/email/outbound-emails",
    // Signed with the key id, for SES in that region; the secret itself is never sent.
    authorized: (request) =>
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/.test(
        request.headers.authorization ?? "",
      ) && !JSON.stringify(request).includes("wJalrXUtnFEMI"),
    mail: (body) => {
      const mail = body as {
        Destination: { ToAddresses: string[] };
        Content: {
          Simple: {
            Subject: { Data: string };
            Body: { Text: { Data: string }; Html: { Data: string } };
          };
        };
      };
      const simple = mail.Content.Simple;
      return {
        to: mail.Destination.ToAddresses.join(","),
        subject: simple.Subject.Data,
        text: simple.Body.Text.Data,
        html: simple.Body.Html.Data,
      };
    },
  },
];

let counter = 0;
const uniqueEmail = () => `provider${++counter}.${Date.now()}@example.com`;

describe.each(providers)("MAIL_ADAPTER=$adapter", (provider) => {
  let double: RecordingService;
  let server: TestServer;

  beforeAll(async () => {
    double = await startRecordingService({ status: 200, body: '{"id":"sent-1"}' });
    server = await startTestServer({
      MAIL_ADAPTER: provider.adapter,
      MAIL_FROM: FROM,
      MAIL_API_URL: new URL(double.url).origin,
      APP_URL: "https://app.example",
      ...provider.settings,
    });
  });
  afterAll(async () => {
    await server.stop();
    await double.close();
  });

  /** The requests the double received for mails to `email` with `subject`. */
  const mailsTo = (email: string, subject: string) =>
    double.requests.filter((request) => {
      const mail = provider.mail(JSON.parse(request.body));
      return mail.to === email && mail.subject === subject;
    });

  it("sends the password reset mail with its link in text and HTML, and the key in the auth header", async () => {
    const email = uniqueEmail();
    const browser = new Browser(server.url);
    expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(303);
    expect((await new Browser(server.url).post("/passwords", { email })).status).toBe(303);

    // Delivery may come shortly after the answer (an outbox sends it in the background).
    await expect.poll(() => mailsTo(email, "Reset your password").length).toBe(1);
    const request = mailsTo(email, "Reset your password")[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe(provider.path);
    expect(provider.authorized(request)).toBe(true);
    const mail = provider.mail(JSON.parse(request.body));
    const link = linkIn(mail.text, "/passwords");
    expect(link.url).toMatch(/^https:\/\/app\.example\/passwords\/[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="${link.url}"`);
  });
});
