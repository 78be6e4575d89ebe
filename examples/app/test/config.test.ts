import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WEBHOOK_RETRY_SCHEDULE } from "@tessera/outbox";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { resolveSecretKeyBase } from "../src/secret-key-base.js";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      databasePath: "data/app.db",
      production: false,
      allowedOrigins: [],
      trustProxy: 0,
      credentialCacheMs: 1000,
    });
  });

  it("reads every setting it knows", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_PATH: ":memory:",
      NODE_ENV: "production",
      APP_URL: "https://app.example/",
      ALLOWED_ORIGINS: " https://a.example/ ,https://b.example,, ",
      TRUST_PROXY: "2",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      databasePath: ":memory:",
      production: true,
      appUrl: "https://app.example",
      allowedOrigins: ["https://a.example", "https://b.example"],
      trustProxy: 2,
    });
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["TRUST_PROXY", "-1"],
    ["TRUST_PROXY", "one"],
    ["APP_URL", "not a url"],
    ["DATABASE_URL", "mysql://root@127.0.0.1/app"],
    ["DATABASE_URL", "data/app.db"],
    ["WEB_CONCURRENCY", "0"],
    ["WEB_CONCURRENCY", "65"],
    ["WEB_CONCURRENCY", "two"],
  ])("refuses %s=%j with a message naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} is not valid`));
  });

  it.each([
    ["PORT", "70000", "expected a whole number from 0 to 65535"],
    // Number() would read each of these as a number.
    ["PORT", "0x50", "expected a whole number from 0 to 65535"],
    ["PORT", "8e3", "expected a whole number from 0 to 65535"],
    ["PORT", "+80", "expected a whole number from 0 to 65535"],
    ["PORT", "80.0", "expected a whole number from 0 to 65535"],
    ["TRUST_PROXY", "-1", "expected a whole number from 0 to 32"],
    ["MAIL_ADAPTER", "Smtp", "expected one of log, smtp, resend, postmark, ses, cloudflare"],
    ["TRACKED_SESSIONS", "maybe", "expected one of on, off"],
    ["SMTP_URL", "https://mail.example", "expected a URL starting smtp:// or smtps://"],
    ["APP_URL", "not a url", "expected a URL starting http:// or https://"],
    ["APP_URL", "https://app.example/ x", "expected a URL starting http:// or https://"],
    ["APP_URL", "javascript:alert(1)", "expected a URL starting http:// or https://"],
    [
      "DATABASE_URL",
      "postgres://app:pass word@127.0.0.1/app",
      "expected a postgres://user:password@host:port/database URL",
    ],
  ])("says what %s=%j should have been", (name, value, expected) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      new ConfigError(`${name} is not valid: ${expected}`),
    );
  });

  it("takes a blank setting as unset, and a number with blanks around it", () => {
    const config = loadConfig({ PORT: " ", WEB_CONCURRENCY: "", TRUST_PROXY: " 2 ", HOST: "  " });
    expect(config).toMatchObject({
      port: 3000,
      webConcurrency: 1,
      trustProxy: 2,
      host: "127.0.0.1",
    });
  });
});

describe("loadConfig for the host check", () => {
  it("allows APP_URL's host and each of ALLOWED_HOSTS, normalized", () => {
    const config = loadConfig({
      APP_URL: "https://App.Example:8443/",
      ALLOWED_HOSTS: " www.app.example , ::1,10.0.0.5:3000,,app.example ",
    });
    expect(config.allowedHosts).toEqual(["app.example", "www.app.example", "[::1]", "10.0.0.5"]);
    expect(loadConfig({}).allowedHosts).toEqual([]);
  });

  it("requires APP_URL or ALLOWED_HOSTS in production, saying why", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(
      new ConfigError(
        "APP_URL or ALLOWED_HOSTS is required in production: requests are served only for those hosts",
      ),
    );
    expect(loadConfig({ NODE_ENV: "production", ALLOWED_HOSTS: "app.example" }).production).toBe(
      true,
    );
  });

  it("refuses an ALLOWED_HOSTS entry that is not a host name, naming it", () => {
    expect(() => loadConfig({ ALLOWED_HOSTS: "app.example, https://www.app.example" })).toThrow(
      /^ALLOWED_HOSTS is not valid: "https:\/\/www\.app\.example" is not a host name/,
    );
  });
});

describe("loadConfig for outbound webhooks", () => {
  it("allows no host and retries on svix's schedule by default", () => {
    const config = loadConfig({});
    expect(config.outboundAllowHosts).toEqual([]);
    expect(config.outboundRetrySchedule).toBe(WEBHOOK_RETRY_SCHEDULE);
  });

  it("reads OUTBOUND_ALLOW_HOSTS and OUTBOUND_RETRY_SCHEDULE", () => {
    const config = loadConfig({
      OUTBOUND_ALLOW_HOSTS: " 127.0.0.1, Hooks.Internal,[::1],, ",
      OUTBOUND_RETRY_SCHEDULE: "0, 0.05,300",
    });
    expect(config.outboundAllowHosts).toEqual(["127.0.0.1", "hooks.internal", "::1"]);
    expect(config.outboundRetrySchedule).toEqual({ delaysMs: [0, 50, 300_000] });
  });

  it("keeps a user to 20 webhook endpoints unless OUTBOUND_MAX_ENDPOINTS says otherwise", () => {
    expect(loadConfig({}).outboundMaxEndpoints).toBe(20);
    expect(loadConfig({ OUTBOUND_MAX_ENDPOINTS: "3" }).outboundMaxEndpoints).toBe(3);
    for (const refused of ["0", "1001", "many"]) {
      expect(() => loadConfig({ OUTBOUND_MAX_ENDPOINTS: refused })).toThrow(ConfigError);
    }
  });

  it("refuses an OUTBOUND_ALLOW_HOSTS entry that is not a host alone, naming it", () => {
    expect(() => loadConfig({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1, http://hooks.test/" })).toThrow(
      new ConfigError(
        'OUTBOUND_ALLOW_HOSTS is not valid: "http://hooks.test/" is not a host: write the host alone, such as 127.0.0.1 or hooks.internal',
      ),
    );
  });

  it("refuses an OUTBOUND_RETRY_SCHEDULE wait that is not seconds, naming it", () => {
    for (const [listed, entry] of [
      ["5,soon", "soon"],
      ["5,,300", ""],
      ["-1", "-1"],
      ["999999999", "999999999"],
      ["0.0001", "0.0001"],
    ]) {
      expect(() => loadConfig({ OUTBOUND_RETRY_SCHEDULE: listed })).toThrow(
        new ConfigError(
          `OUTBOUND_RETRY_SCHEDULE is not valid: "${entry}" is not a wait: expected seconds from 0 to 604800, comma-separated, such as 5,300,1800`,
        ),
      );
    }
  });
});

describe("loadConfig for the database and processes", () => {
  it("takes PostgreSQL from DATABASE_URL and the process count from WEB_CONCURRENCY", () => {
    expect(loadConfig({})).toMatchObject({ databaseUrl: undefined, webConcurrency: 1 });
    const config = loadConfig({
      DATABASE_URL: "postgres://app:s3cret@127.0.0.1:5432/app",
      WEB_CONCURRENCY: "4",
    });
    expect(config).toMatchObject({
      databaseUrl: "postgres://app:s3cret@127.0.0.1:5432/app",
      webConcurrency: 4,
    });
    expect(loadConfig({ DATABASE_URL: "postgresql://db.internal/app" }).databaseUrl).toBe(
      "postgresql://db.internal/app",
    );
  });

  it("never repeats a refused DATABASE_URL, which may hold a password", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db/app" })).toThrow(
      /^DATABASE_URL is not valid: expected a postgres:\/\/user:password@host:port\/database URL$/,
    );
  });
});

describe("loadConfig for mail, jobs, sessions and providers", () => {
  it("defaults MAIL_ADAPTER to log in development and to none in production", () => {
    expect(loadConfig({}).mailAdapter).toBe("log");
    expect(
      loadConfig({ NODE_ENV: "production", APP_URL: "https://app.example" }).mailAdapter,
    ).toBeUndefined();
    expect(loadConfig({ MAIL_ADAPTER: "smtp", SMTP_URL: "smtp://127.0.0.1:2525" }).smtpUrl).toBe(
      "smtp://127.0.0.1:2525",
    );
  });

  it.each([
    [{ MAIL_ADAPTER: "carrier-pigeon" }, /^MAIL_ADAPTER is not valid/],
    [{ MAIL_ADAPTER: "smtp" }, /^SMTP_URL is required when MAIL_ADAPTER is smtp$/],
    [{ SMTP_URL: "https://mail.example" }, /^SMTP_URL is not valid/],
    [{ TRACKED_SESSIONS: "maybe" }, /^TRACKED_SESSIONS is not valid/],
    [{ SWEEP_INTERVAL_SECONDS: "0" }, /^SWEEP_INTERVAL_SECONDS is not valid/],
    [
      {
        EXAMPLE_CLIENT_ID: "id",
        EXAMPLE_CLIENT_SECRET: "secret",
        EXAMPLE_ISSUER: "https://id.example",
      },
      /^APP_URL is required when sign-in providers are configured/,
    ],
  ])("refuses %j", (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(message);
  });

  it("reads the job, session and provider settings", () => {
    const config = loadConfig({
      RENDER_URL: "http://127.0.0.1:9000/render",
      RENDER_SECRET: "s",
      SWEEP_INTERVAL_SECONDS: "600",
      TRACKED_SESSIONS: "off",
      APP_URL: "https://app.example",
      GITHUB_CLIENT_ID: "gh-id",
      GITHUB_CLIENT_SECRET: "gh-secret",
    });
    expect(config.render).toEqual({
      url: "http://127.0.0.1:9000/render",
      secret: "s",
      token: undefined,
    });
    expect(config.sweepIntervalSeconds).toBe(600);
    expect(config.trackedSessions).toBe(false);
    expect(config.oauthProviders.map((provider) => provider.name)).toEqual(["github"]);
  });
});

describe("resolveSecretKeyBase", () => {
  const folders: string[] = [];
  const secretPathInTemporaryFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-secret-"));
    folders.push(folder);
    return join(folder, "data", "secret_key_base");
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("requires SECRET_KEY_BASE in production, with a clear message", () => {
    const production = { NODE_ENV: "production", APP_URL: "https://app.example" };
    expect(() => resolveSecretKeyBase(loadConfig(production))).toThrow(
      "SECRET_KEY_BASE is required in production",
    );
  });

  it("refuses one shorter than 32 characters, in production and development", () => {
    for (const NODE_ENV of ["production", "development"]) {
      expect(() =>
        resolveSecretKeyBase(
          loadConfig({ NODE_ENV, SECRET_KEY_BASE: "x".repeat(31), APP_URL: "https://a.example" }),
        ),
      ).toThrow("SECRET_KEY_BASE is too short: it needs at least 32 characters");
    }
  });

  it("uses the configured value as is", () => {
    const secret = "k".repeat(32);
    const path = secretPathInTemporaryFolder();
    expect(resolveSecretKeyBase(loadConfig({ SECRET_KEY_BASE: secret }), path)).toBe(secret);
    expect(() => statSync(path)).toThrow();
  });

  it("generates one in development, keeps it private, and reuses it on the next start", () => {
    const path = secretPathInTemporaryFolder();
    const first = resolveSecretKeyBase(loadConfig({}), path);
    expect(first).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(readFileSync(path, "utf8").trim()).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(resolveSecretKeyBase(loadConfig({}), path)).toBe(first);
  });

  it("replaces a kept secret that is too short", () => {
    const path = secretPathInTemporaryFolder();
    resolveSecretKeyBase(loadConfig({}), path);
    writeFileSync(path, "short\n");
    expect(resolveSecretKeyBase(loadConfig({}), path)).toHaveLength(86);
  });
});

describe("the captcha settings", () => {
  const all = {
    CAPTCHA_PROVIDER: "turnstile",
    CAPTCHA_SITE_KEY: "0x4AAAAAAA-site",
    CAPTCHA_SECRET: "0x4AAAAAAA-secret",
  };

  it("are off without any of them", () => {
    expect(loadConfig({}).captcha).toBeUndefined();
    expect(loadConfig({ CAPTCHA_PROVIDER: " ", CAPTCHA_SECRET: "" }).captcha).toBeUndefined();
  });

  it("read all three, and the verify URL when given", () => {
    expect(loadConfig(all).captcha).toEqual({
      provider: "turnstile",
      siteKey: "0x4AAAAAAA-site",
      secret: "0x4AAAAAAA-secret",
    });
    expect(
      loadConfig({
        ...all,
        CAPTCHA_PROVIDER: "hcaptcha",
        CAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify",
      }).captcha,
    ).toEqual({
      provider: "hcaptcha",
      siteKey: "0x4AAAAAAA-site",
      secret: "0x4AAAAAAA-secret",
      verifyUrl: "http://127.0.0.1:9/siteverify",
    });
  });

  it("name what is missing when only some are set", () => {
    expect(() => loadConfig({ CAPTCHA_PROVIDER: "turnstile" })).toThrow(
      new ConfigError(
        "CAPTCHA_SITE_KEY and CAPTCHA_SECRET are required with a captcha: set CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY and CAPTCHA_SECRET together, or none of them",
      ),
    );
    expect(() => loadConfig({ ...all, CAPTCHA_SECRET: "" })).toThrow(
      "CAPTCHA_SECRET is required with a captcha",
    );
    expect(() => loadConfig({ CAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify" })).toThrow(
      "CAPTCHA_VERIFY_URL is set without a captcha",
    );
  });

  it("refuse an unknown provider and a verify URL that is not http(s)", () => {
    expect(() => loadConfig({ ...all, CAPTCHA_PROVIDER: "recaptcha" })).toThrow(
      "CAPTCHA_PROVIDER is not valid: expected one of turnstile, hcaptcha",
    );
    expect(() => loadConfig({ ...all, CAPTCHA_VERIFY_URL: "ftp://captcha.example/" })).toThrow(
      "CAPTCHA_VERIFY_URL is not valid: expected an http(s) URL",
    );
  });
});

describe("the breached-password settings", () => {
  const production = { NODE_ENV: "production", APP_URL: "https://app.example" };

  it("are on in production and off otherwise, against Have I Been Pwned by default", () => {
    expect(loadConfig({})).toMatchObject({
      pwnedPasswords: false,
      pwnedPasswordsUrl: "https://api.pwnedpasswords.com",
    });
    expect(loadConfig(production)).toMatchObject({
      pwnedPasswords: true,
      pwnedPasswordsUrl: "https://api.pwnedpasswords.com",
    });
  });

  it("wait 500 ms by default, or PWNED_PASSWORDS_TIMEOUT_MS from 50 to 10000", () => {
    expect(loadConfig({}).pwnedPasswordsTimeoutMs).toBe(500);
    expect(loadConfig({ PWNED_PASSWORDS_TIMEOUT_MS: "2000" }).pwnedPasswordsTimeoutMs).toBe(2000);
    expect(() => loadConfig({ PWNED_PASSWORDS_TIMEOUT_MS: "10" })).toThrow(
      /PWNED_PASSWORDS_TIMEOUT_MS is not valid/,
    );
  });

  it("sign tokens HS256 by default, EdDSA or ES256 when asked, and refuse keys HS256 would not use", () => {
    expect(loadConfig({})).toMatchObject({ jwtAlgorithm: "HS256", jwtPrivateKeys: undefined });
    expect(loadConfig({ JWT_ALGORITHM: "EdDSA", JWT_AUDIENCE: "api" })).toMatchObject({
      jwtAlgorithm: "EdDSA",
      jwtAudience: "api",
    });
    expect(() => loadConfig({ JWT_ALGORITHM: "RS256" })).toThrow(
      new ConfigError("JWT_ALGORITHM is not valid: expected one of HS256, EdDSA, ES256"),
    );
    expect(() => loadConfig({ JWT_PRIVATE_KEYS: '{"keys":[]}' })).toThrow(
      new ConfigError("JWT_PRIVATE_KEYS is used only with JWT_ALGORITHM=EdDSA or ES256"),
    );
  });

  it("take ADMIN_EMAILS as normalized addresses, and refuse one that is not", () => {
    expect(
      loadConfig({ ADMIN_EMAILS: " Ops@Example.com, ops@example.com,b@example.com " }).adminEmails,
    ).toEqual(["ops@example.com", "b@example.com"]);
    expect(loadConfig({}).adminEmails).toEqual([]);
    expect(() => loadConfig({ ADMIN_EMAILS: "ops@example.com, nope" })).toThrow(
      new ConfigError('ADMIN_EMAILS is not valid: "nope" is not an email address'),
    );
  });

  it("take PWNED_PASSWORDS=0|1 and a URL, without its trailing slash", () => {
    expect(loadConfig({ ...production, PWNED_PASSWORDS: "0" }).pwnedPasswords).toBe(false);
    expect(
      loadConfig({ PWNED_PASSWORDS: "1", PWNED_PASSWORDS_URL: "http://127.0.0.1:9/" }),
    ).toMatchObject({ pwnedPasswords: true, pwnedPasswordsUrl: "http://127.0.0.1:9" });
  });

  it("refuse another value, a URL that is not http(s), and http in production", () => {
    expect(() => loadConfig({ PWNED_PASSWORDS: "yes" })).toThrow(
      new ConfigError("PWNED_PASSWORDS is not valid: expected one of 0, 1"),
    );
    expect(() => loadConfig({ PWNED_PASSWORDS_URL: "ftp://pwned.example/" })).toThrow(
      new ConfigError("PWNED_PASSWORDS_URL is not valid: expected an http(s) URL"),
    );
    expect(() =>
      loadConfig({ ...production, PWNED_PASSWORDS_URL: "http://pwned.internal" }),
    ).toThrow(
      new ConfigError(
        "PWNED_PASSWORDS_URL must be an https:// URL in production: outbound requests there are https only",
      ),
    );
    // Off, the URL is not used: production takes it as it is.
    expect(
      loadConfig({ ...production, PWNED_PASSWORDS: "0", PWNED_PASSWORDS_URL: "http://x.test" }),
    ).toMatchObject({ pwnedPasswords: false });
  });
});
