// MAIL_ADAPTER and the HTTP providers' settings: what loadConfig takes, what stops the app at
// start (one line naming the setting, never a secret's value), and what createAppMailer refuses.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { createAppMailer } from "../src/mailer.js";

const FROM = "Notes <no-reply@notes.example>";
const SECRETS = {
  RESEND_API_KEY: "re_secret_value_1",
  POSTMARK_SERVER_TOKEN: "pm-secret-value-2",
  AWS_ACCESS_KEY_ID: "AKIDSECRETVALUE3",
  AWS_SECRET_ACCESS_KEY: "aws/secret+value/4",
};

/** The message loadConfig stops with, failing when it does not. */
function refusal(environment: Record<string, string>): string {
  try {
    loadConfig(environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(environment)}`);
}

describe("loadConfig for the HTTP mail providers", () => {
  it("reads each provider's settings and MAIL_API_URL", () => {
    const config = loadConfig({
      MAIL_ADAPTER: "ses",
      MAIL_FROM: FROM,
      MAIL_API_URL: "http://127.0.0.1:8025",
      AWS_REGION: "eu-west-1",
      ...SECRETS,
    });
    expect(config).toMatchObject({
      mailAdapter: "ses",
      mailFrom: FROM,
      mailApiUrl: "http://127.0.0.1:8025",
      mailCredentials: {
        resendApiKey: SECRETS.RESEND_API_KEY,
        postmarkServerToken: SECRETS.POSTMARK_SERVER_TOKEN,
        awsRegion: "eu-west-1",
        awsAccessKeyId: SECRETS.AWS_ACCESS_KEY_ID,
        awsSecretAccessKey: SECRETS.AWS_SECRET_ACCESS_KEY,
      },
    });
    for (const adapter of ["resend", "postmark", "cloudflare"]) {
      expect(loadConfig({ MAIL_ADAPTER: adapter, MAIL_FROM: FROM, ...SECRETS }).mailAdapter).toBe(
        adapter,
      );
    }
  });

  it("keeps the default sender for log and smtp, which need none", () => {
    expect(loadConfig({}).mailFrom).toBe("Tessera <no-reply@localhost>");
    expect(loadConfig({ MAIL_ADAPTER: "smtp", SMTP_URL: "smtp://127.0.0.1:2525" }).mailFrom).toBe(
      "Tessera <no-reply@localhost>",
    );
    expect(loadConfig({}).mailApiUrl).toBeUndefined();
  });

  it.each([
    [
      { MAIL_ADAPTER: "resend", MAIL_FROM: FROM },
      "RESEND_API_KEY is required when MAIL_ADAPTER is resend",
    ],
    [
      { MAIL_ADAPTER: "resend", RESEND_API_KEY: SECRETS.RESEND_API_KEY },
      "MAIL_FROM is required when MAIL_ADAPTER is resend",
    ],
    [
      { MAIL_ADAPTER: "postmark", MAIL_FROM: FROM, RESEND_API_KEY: SECRETS.RESEND_API_KEY },
      "POSTMARK_SERVER_TOKEN is required when MAIL_ADAPTER is postmark",
    ],
    [
      { MAIL_ADAPTER: "postmark", POSTMARK_SERVER_TOKEN: "  " },
      "MAIL_FROM and POSTMARK_SERVER_TOKEN are required when MAIL_ADAPTER is postmark",
    ],
    [
      {
        MAIL_ADAPTER: "ses",
        MAIL_FROM: FROM,
        AWS_REGION: "eu-west-1",
        AWS_ACCESS_KEY_ID: SECRETS.AWS_ACCESS_KEY_ID,
      },
      "AWS_SECRET_ACCESS_KEY is required when MAIL_ADAPTER is ses",
    ],
    [
      {
        MAIL_ADAPTER: "ses",
        MAIL_FROM: FROM,
        AWS_SECRET_ACCESS_KEY: SECRETS.AWS_SECRET_ACCESS_KEY,
      },
      "AWS_REGION and AWS_ACCESS_KEY_ID are required when MAIL_ADAPTER is ses",
    ],
    [{ MAIL_ADAPTER: "cloudflare" }, "MAIL_FROM is required when MAIL_ADAPTER is cloudflare"],
  ])("stops at %j with one line naming what is missing, never a secret", (environment, message) => {
    const said = refusal(environment);
    expect(said).toBe(message);
    for (const secret of Object.values(SECRETS)) expect(said).not.toContain(secret);
  });

  it.each([["not a url"], ["ftp://mail.example"], ["file:///etc/passwd"], ["javascript:alert(1)"]])(
    "refuses MAIL_API_URL=%j: an http(s) URL only",
    (url) => {
      expect(refusal({ MAIL_API_URL: url })).toBe(
        "MAIL_API_URL is not valid: expected an http(s) URL",
      );
    },
  );

  it("refuses a MAIL_FROM that is not an address, or that holds a line break", () => {
    for (const from of [
      "no-reply",
      "Notes <no-reply>",
      "a@b.example\r\nBcc: all@example.com",
      "<a@b> c@d",
    ]) {
      expect(refusal({ MAIL_FROM: from })).toBe(
        "MAIL_FROM is not valid: expected an address such as no-reply@app.example or Notes <no-reply@app.example>",
      );
    }
    for (const from of [
      "no-reply@app.example",
      "Zoë de Notes <no-reply@notes.example>",
      '"Notes, Inc." <a@b.example>',
    ]) {
      expect(loadConfig({ MAIL_FROM: from }).mailFrom).toBe(from);
    }
  });

  it("refuses an AWS_REGION that is not a region's name (it becomes the endpoint's host)", () => {
    for (const region of ["eu-west-1.evil.example", "EU-WEST-1", "eu west 1"]) {
      expect(refusal({ AWS_REGION: region })).toBe(
        "AWS_REGION is not valid: expected a region such as eu-west-1",
      );
    }
    expect(loadConfig({ AWS_REGION: "us-gov-west-1" }).mailCredentials.awsRegion).toBe(
      "us-gov-west-1",
    );
  });
});

describe("createAppMailer on Node", () => {
  it("refuses MAIL_ADAPTER=cloudflare, which needs a Worker's send_email binding", () => {
    const config = loadConfig({ MAIL_ADAPTER: "cloudflare", MAIL_FROM: FROM });
    expect(() => createAppMailer(config)).toThrow(
      new ConfigError(
        "MAIL_ADAPTER=cloudflare needs the send_email binding of a Worker; on Node use resend, postmark, ses or smtp",
      ),
    );
  });
});
