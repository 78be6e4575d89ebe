import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ERROR_STATUS_TOKEN,
  GOOD_TOKEN,
  HANGING_TOKEN,
  MALFORMED_ANSWER_TOKEN,
  type SiteverifyDouble,
  startSiteverifyDouble,
} from "../../../../test/support/siteverify-double.js";
import { webCaptchaFetch } from "../../src/captcha/captcha-fetch.js";
import {
  type CaptchaVerifierOptions,
  captchaVerifier,
  checkCaptchaSettings,
} from "../../src/captcha/captcha-verifier.js";

const SECRET = "0x4AAAAAAAverify-secret";
const SITE_KEY = "0x4AAAAAAAsite-key";

let double: SiteverifyDouble;
const reports: string[] = [];

beforeAll(async () => {
  double = await startSiteverifyDouble(SECRET);
});
afterAll(() => double.close());

function verifier(overrides: Partial<CaptchaVerifierOptions> = {}) {
  return captchaVerifier({
    provider: "turnstile",
    siteKey: SITE_KEY,
    secret: SECRET,
    verifyUrl: double.url,
    fetch: webCaptchaFetch({ timeoutMs: 500 }),
    onUnverifiable: (message) => reports.push(message),
    ...overrides,
  });
}

describe("captchaVerifier against a siteverify double", () => {
  it("accepts a token the provider accepts, sending secret, response and remoteip form-encoded", async () => {
    const before = double.received.length;
    expect(await verifier()(GOOD_TOKEN, "203.0.113.7")).toEqual({ ok: true });
    expect(double.received.slice(before)).toEqual([
      {
        contentType: "application/x-www-form-urlencoded",
        form: { secret: SECRET, response: GOOD_TOKEN, remoteip: "203.0.113.7" },
      },
    ]);
  });

  it("refuses a token the provider refuses, with its error-codes", async () => {
    expect(await verifier()("forged-token", "203.0.113.7")).toEqual({
      ok: false,
      reason: "refused",
      errorCodes: ["invalid-input-response"],
    });
  });

  it("refuses every token when the secret is wrong", async () => {
    expect(await verifier({ secret: "wrong" })(GOOD_TOKEN)).toEqual({
      ok: false,
      reason: "refused",
      errorCodes: ["invalid-input-secret"],
    });
  });

  it("sends hCaptcha's sitekey too, and no remoteip when the address is unknown", async () => {
    const before = double.received.length;
    expect(await verifier({ provider: "hcaptcha" })(GOOD_TOKEN, "unknown")).toEqual({ ok: true });
    expect(double.received.slice(before).map((request) => request.form)).toEqual([
      { secret: SECRET, response: GOOD_TOKEN, sitekey: SITE_KEY },
    ]);
  });

  it("fails closed: an answer that is not JSON, an error status, a timeout, no server", async () => {
    reports.length = 0;
    const unverifiable = { ok: false, reason: "unverifiable", errorCodes: [] };
    expect(await verifier()(MALFORMED_ANSWER_TOKEN)).toEqual(unverifiable);
    expect(await verifier()(ERROR_STATUS_TOKEN)).toEqual(unverifiable);
    expect(await verifier()(HANGING_TOKEN)).toEqual(unverifiable);
    const closed = await startSiteverifyDouble(SECRET);
    await closed.close();
    expect(await verifier({ verifyUrl: closed.url })(GOOD_TOKEN)).toEqual(unverifiable);
    expect(reports).toHaveLength(4);
    expect(reports[2]).toMatch(/^timeout: /);
    expect(reports[3]).toMatch(/^network-error: /);
    for (const report of reports) expect(report).not.toContain(SECRET);
  });

  it("refuses a missing or over-long token without a request", async () => {
    const before = double.received.length;
    const verify = verifier();
    expect(await verify(undefined)).toEqual({ ok: false, reason: "missing", errorCodes: [] });
    expect(await verify("")).toEqual({ ok: false, reason: "missing", errorCodes: [] });
    expect(await verify("x".repeat(2049))).toEqual({
      ok: false,
      reason: "too-long",
      errorCodes: [],
    });
    expect(double.received.length).toBe(before);
    // 2048 characters is a Turnstile token's documented maximum: it is asked about.
    expect((await verify("x".repeat(2048))).ok).toBe(false);
    expect(double.received.length).toBe(before + 1);
  });

  it("reads only a boolean success: a string or a missing one is unverifiable", async () => {
    const answering = (answer: string) =>
      captchaVerifier({
        provider: "turnstile",
        siteKey: SITE_KEY,
        secret: SECRET,
        fetch: async () => ({ kind: "answered", status: 200, answer }),
        onUnverifiable: () => {},
      })(GOOD_TOKEN);
    expect((await answering('{"success":"true"}')).ok).toBe(false);
    expect((await answering("[true]")).ok).toBe(false);
    expect(await answering('{"success":false}')).toEqual({
      ok: false,
      reason: "refused",
      errorCodes: [],
    });
  });
});

describe("checkCaptchaSettings", () => {
  it("names the setting that cannot work", () => {
    const settings = { provider: "turnstile", siteKey: SITE_KEY, secret: SECRET } as const;
    expect(() => checkCaptchaSettings(settings)).not.toThrow();
    expect(() => checkCaptchaSettings({ ...settings, secret: " " })).toThrow(/`secret` is missing/);
    expect(() => checkCaptchaSettings({ ...settings, siteKey: "" })).toThrow(/`siteKey`/);
    expect(() =>
      checkCaptchaSettings({ ...settings, provider: "recaptcha" as "turnstile" }),
    ).toThrow(/one of turnstile, hcaptcha/);
    expect(() => checkCaptchaSettings({ ...settings, verifyUrl: "not a url" })).toThrow(
      /`verifyUrl`/,
    );
  });
});
