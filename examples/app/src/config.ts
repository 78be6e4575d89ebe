import type { CaptchaSettings } from "@tessera/accounts";
import { MINIMUM_SECRET_LENGTH } from "@tessera/crypto";
import { normalizeHost, parseAllowedHosts, parseAllowedOrigins } from "@tessera/http";
import { type OAuthProvider, oauthProvidersFromEnv } from "@tessera/oauth";
import { MAXIMUM_ENDPOINTS_PER_OWNER } from "@tessera/outbound";
import { type RetrySchedule, WEBHOOK_RETRY_SCHEDULE } from "@tessera/outbox";
import {
  emailList,
  InvalidSetting,
  matching,
  oneOf,
  optionalText,
  readSettings,
  type SettingReader,
  type SettingsRead,
  textOr,
  url,
  wholeNumber,
} from "./setting-readers.js";

/** The example app's settings, read from the environment (see docs/configuration.md). */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly databasePath: string;
  /** `DATABASE_URL` (`postgres://…`): PostgreSQL instead of the SQLite file, when set. */
  readonly databaseUrl: string | undefined;
  /** `WEB_CONCURRENCY`: how many processes serve the port (default 1). */
  readonly webConcurrency: number;
  readonly production: boolean;
  /** Explicit `SECRET_KEY_BASE`, if set; see secret-key-base.ts for the development fallback. */
  readonly secretKeyBase: string | undefined;
  readonly secretKeyBasePrevious: string | undefined;
  readonly appUrl: string | undefined;
  readonly allowedOrigins: readonly string[];
  /**
   * The hosts requests may name in production: `APP_URL`'s host and `ALLOWED_HOSTS`, normalized
   * (`normalizeHost` of `@tessera/http`). Every other `Host` is refused with a 400 there.
   */
  readonly allowedHosts: readonly string[];
  readonly trustProxy: number;
  /**
   * `MAIL_ADAPTER`, or undefined (production without it: no mail). Development without it means
   * `log`. `cloudflare` works on the Worker only, where the `send_email` binding exists.
   */
  readonly mailAdapter: MailAdapterName | undefined;
  /** `SMTP_URL`, e.g. `smtp://user:password@mail.example:587`, for the `smtp` adapter. */
  readonly smtpUrl: string | undefined;
  /** `MAIL_FROM`: the sender of account mails (required with the HTTP providers). */
  readonly mailFrom: string;
  /** `MAIL_API_URL`: replaces the HTTP provider's base URL (a proxy, or a local double). */
  readonly mailApiUrl: string | undefined;
  /** The HTTP providers' credentials; the chosen adapter's are checked to be there. */
  readonly mailCredentials: MailCredentials;
  /** The external `render` service: `RENDER_URL`, `RENDER_SECRET`, optional `RENDER_TOKEN`. */
  readonly render: {
    readonly url: string | undefined;
    readonly secret: string | undefined;
    readonly token: string | undefined;
  };
  /** `UPLOADS_PATH`: folder of uploaded files (default `uploads` beside the database file). */
  readonly uploadsPath: string | undefined;
  /**
   * Sign-in providers from `{PROVIDER}_CLIENT_ID` / `{PROVIDER}_CLIENT_SECRET` (GitHub, Google,
   * or any OpenID Connect issuer with `{PROVIDER}_ISSUER`); none means OAuth is off.
   */
  readonly oauthProviders: readonly OAuthProvider[];
  /** `TRACKED_SESSIONS`: the device list option, on unless set to `off`. */
  readonly trackedSessions: boolean;
  /** `SWEEP_INTERVAL_SECONDS`: how often the job sweep runs (default 300). */
  readonly sweepIntervalSeconds: number;
  /**
   * `CREDENTIAL_CACHE_MS`: how long a user found by id and an API key found by digest are served
   * from memory (default 1000; 0 always queries). A change made in the same process takes effect
   * at once; one made by another process (a second worker, the CLI) at most this late.
   */
  readonly credentialCacheMs: number;
  /**
   * `WEBHOOK_RETENTION_DAYS`: processed webhook events older than this are deleted (default
   * 30; 0 keeps them forever). A deleted event delivered again runs its effect again.
   */
  readonly webhookRetentionDays: number;
  /**
   * `AUDIT_RETENTION_DAYS`: account audit events older than this are deleted (default 365; 0
   * keeps them forever).
   */
  readonly auditRetentionDays: number;
  /**
   * `REFRESH_TOKEN_TTL`: how long an app's sign-in lasts through its refresh tokens, in
   * seconds (default 2592000, 30 days; 60 to 31536000). Refreshing never extends it.
   */
  readonly refreshTokenTtlSeconds: number;
  /**
   * `ADMIN_EMAILS`: comma-separated addresses whose accounts, once confirmed, are operators
   * (the `/api/admin` routes), besides users given the role by `tessera admin grant`.
   */
  readonly adminEmails: readonly string[];
  /**
   * `JWT_ALGORITHM` (`HS256`, the default, `EdDSA` or `ES256`): how bearer tokens are signed.
   * With EdDSA or ES256 they carry `kid`, `iss` (`APP_URL`) and `aud` (`JWT_AUDIENCE`), and
   * `/.well-known/jwks.json` publishes the keys that verify them.
   */
  readonly jwtAlgorithm: "HS256" | "EdDSA" | "ES256";
  /**
   * `JWT_PRIVATE_KEYS`: a JWK set (JSON) of private keys to sign with (the first) and verify
   * with; without it, keys are made at first start and kept sealed in the database.
   */
  readonly jwtPrivateKeys: string | undefined;
  /** `JWT_AUDIENCE`: the `aud` of EdDSA/ES256 tokens, checked on every token when set. */
  readonly jwtAudience: string | undefined;
  /**
   * `OUTBOUND_ALLOW_HOSTS`: hosts (names or IP addresses, lower case, IPv6 without brackets)
   * that users' webhook endpoints may name although they are, or resolve to, addresses the
   * SSRF guard refuses. Empty by default; tests name `127.0.0.1`.
   */
  readonly outboundAllowHosts: readonly string[];
  /**
   * `OUTBOUND_RETRY_SCHEDULE`: the waits between attempts of a webhook delivery, from the
   * seconds listed (default svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
   */
  readonly outboundRetrySchedule: RetrySchedule;
  /**
   * `OUTBOUND_RETENTION_DAYS`: outbound webhook messages sent longer ago than this are deleted
   * with their attempts, unless still being delivered (default 30; 0 keeps them forever).
   */
  readonly outboundRetentionDays: number;
  /**
   * `OUTBOUND_MAX_ENDPOINTS`: the most webhook endpoints one user may have, enabled or not
   * (default 20, 1 to 1,000): each is one more request for every event and replay.
   */
  readonly outboundMaxEndpoints: number;
  /**
   * `OUTBOUND_WEBHOOKS`: users' webhook endpoints and the events sent to them, on unless set
   * to `off` (then no endpoint routes or pages, no sender, and record writes send no event).
   */
  readonly outboundWebhooks: boolean;
  /**
   * `PWNED_PASSWORDS` (`0` or `1`; default `1` in production, `0` otherwise): every new password
   * (sign-up, reset, change) is looked up in Have I Been Pwned's range API, k-anonymously, and
   * refused when it appeared in a breach; the check fails open.
   */
  readonly pwnedPasswords: boolean;
  /**
   * `PWNED_PASSWORDS_URL`: the range API's base URL (default `https://api.pwnedpasswords.com`);
   * it goes through the outbound guard, so a private host must be in `OUTBOUND_ALLOW_HOSTS`.
   */
  readonly pwnedPasswordsUrl: string;
  /**
   * `PWNED_PASSWORDS_TIMEOUT_MS`: how long a check waits for the range API before it lets the
   * password through (default 500, 50 to 10000).
   */
  readonly pwnedPasswordsTimeoutMs: number;
  /**
   * `CAPTCHA_PROVIDER` (`turnstile` or `hcaptcha`), `CAPTCHA_SITE_KEY`, `CAPTCHA_SECRET` and
   * optionally `CAPTCHA_VERIFY_URL`: a captcha on sign-up, login, the mail requests and the
   * emailed code's request. Undefined when none is set; all three or none.
   */
  readonly captcha: CaptchaSettings | undefined;
  /** `<NAME>_WEBHOOK_SECRET` of each inbound webhook endpoint, when set. */
  readonly webhookSecrets: {
    readonly orders: string | undefined;
    readonly github: string | undefined;
    readonly stripe: string | undefined;
    readonly billing: string | undefined;
  };
}

/** What `MAIL_ADAPTER` may name. */
export const MAIL_ADAPTERS = ["log", "smtp", "resend", "postmark", "ses", "cloudflare"] as const;

/** One of {@link MAIL_ADAPTERS}. */
export type MailAdapterName = (typeof MAIL_ADAPTERS)[number];

/** The HTTP mail providers' settings, each undefined when not set. */
export interface MailCredentials {
  /** `RESEND_API_KEY`, for `MAIL_ADAPTER=resend`. */
  readonly resendApiKey: string | undefined;
  /** `POSTMARK_SERVER_TOKEN`, for `MAIL_ADAPTER=postmark`. */
  readonly postmarkServerToken: string | undefined;
  /** `AWS_REGION`, `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, for `MAIL_ADAPTER=ses`. */
  readonly awsRegion: string | undefined;
  readonly awsAccessKeyId: string | undefined;
  readonly awsSecretAccessKey: string | undefined;
}

/** The settings each adapter cannot send without, in the order they are named when missing. */
const REQUIRED_MAIL_SETTINGS: Record<MailAdapterName, readonly string[]> = {
  log: [],
  smtp: ["SMTP_URL"],
  resend: ["MAIL_FROM", "RESEND_API_KEY"],
  postmark: ["MAIL_FROM", "POSTMARK_SERVER_TOKEN"],
  ses: ["MAIL_FROM", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
  cloudflare: ["MAIL_FROM"],
};

/** A setting that cannot be used; `message` is meant for the operator, as is. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * `SECRET_KEY_BASE` as given, when it is long enough to derive keys from.
 * @throws {ConfigError} when it is shorter than 32 characters.
 */
export function checkedSecretKeyBase(configured: string): string {
  if (configured.length < MINIMUM_SECRET_LENGTH) {
    throw new ConfigError(
      `SECRET_KEY_BASE is too short: it needs at least ${MINIMUM_SECRET_LENGTH} characters (try: openssl rand -hex 64)`,
    );
  }
  return configured;
}

// Each setting's reader; a blank value counts as unset (see setting-readers.ts).
const SETTING_READERS = {
  PORT: wholeNumber(0, 65535, 3000),
  HOST: textOr("127.0.0.1"),
  DATABASE_PATH: textOr("data/app.db"),
  // Checked without echoing the value: a database URL carries a password.
  DATABASE_URL: url({
    schemes: ["postgres", "postgresql"],
    message: "expected a postgres://user:password@host:port/database URL",
  }),
  WEB_CONCURRENCY: wholeNumber(1, 64, 1),
  NODE_ENV: optionalText,
  SECRET_KEY_BASE: optionalText,
  SECRET_KEY_BASE_PREVIOUS: optionalText,
  APP_URL: url({ schemes: ["http", "https"] }),
  ALLOWED_ORIGINS: optionalText,
  ALLOWED_HOSTS: optionalText,
  TRUST_PROXY: wholeNumber(0, 32, 0),
  MAIL_ADAPTER: oneOf(MAIL_ADAPTERS),
  SMTP_URL: url({ schemes: ["smtp", "smtps"] }),
  // Left unset here: the HTTP providers need a real one, the others fall back to a default.
  // Checked at start, since a provider refuses a malformed sender at every mail; a line break
  // would let the setting add headers of its own.
  MAIL_FROM: matching(
    /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
    "expected an address such as no-reply@app.example or Notes <no-reply@app.example>",
  ),
  MAIL_API_URL: url({ schemes: ["http", "https"], message: "expected an http(s) URL" }),
  RESEND_API_KEY: optionalText,
  POSTMARK_SERVER_TOKEN: optionalText,
  // It becomes part of the endpoint's host name: only a region's shape gets that far.
  AWS_REGION: matching(/^[a-z]{2}(-[a-z]+)+-\d+$/, "expected a region such as eu-west-1"),
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  UPLOADS_PATH: optionalText,
  TRACKED_SESSIONS: oneOf(["on", "off"]),
  RENDER_URL: url({ schemes: ["http", "https"] }),
  RENDER_SECRET: optionalText,
  RENDER_TOKEN: optionalText,
  SWEEP_INTERVAL_SECONDS: wholeNumber(1, 86_400, 300),
  // A second by default: the user's SELECT left every bearer request (the hot path's largest
  // cost), and another process's delete or revoke still takes effect within a second.
  CREDENTIAL_CACHE_MS: wholeNumber(0, 60_000, 1000),
  WEBHOOK_RETENTION_DAYS: wholeNumber(0, 36_500, 30),
  AUDIT_RETENTION_DAYS: wholeNumber(0, 36_500, 365),
  REFRESH_TOKEN_TTL: wholeNumber(60, 31_536_000, 2_592_000),
  ADMIN_EMAILS: emailList,
  JWT_ALGORITHM: oneOf(["HS256", "EdDSA", "ES256"] as const),
  JWT_PRIVATE_KEYS: optionalText,
  JWT_AUDIENCE: optionalText,
  OUTBOUND_ALLOW_HOSTS: outboundHostsOf,
  OUTBOUND_RETRY_SCHEDULE: retryScheduleOf,
  OUTBOUND_RETENTION_DAYS: wholeNumber(0, 36_500, 30),
  OUTBOUND_MAX_ENDPOINTS: wholeNumber(1, 1000, MAXIMUM_ENDPOINTS_PER_OWNER),
  OUTBOUND_WEBHOOKS: oneOf(["on", "off"]),
  PWNED_PASSWORDS: oneOf(["0", "1"]),
  PWNED_PASSWORDS_URL: url({ schemes: ["http", "https"], message: "expected an http(s) URL" }),
  PWNED_PASSWORDS_TIMEOUT_MS: wholeNumber(50, 10_000, 500),
  ORDERS_WEBHOOK_SECRET: optionalText,
  GITHUB_WEBHOOK_SECRET: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  BILLING_WEBHOOK_SECRET: optionalText,
  CAPTCHA_PROVIDER: oneOf(["turnstile", "hcaptcha"] as const),
  CAPTCHA_SITE_KEY: optionalText,
  CAPTCHA_SECRET: optionalText,
  CAPTCHA_VERIFY_URL: url({ schemes: ["http", "https"], message: "expected an http(s) URL" }),
} satisfies Record<string, SettingReader<unknown>>;

/**
 * The names of the settings (beside the sign-in providers' `{PROVIDER}_CLIENT_ID`,
 * `_CLIENT_SECRET`, `_ISSUER` and `_LABEL`), for a runner that hands them to the app (the Worker's).
 */
export const SETTING_NAMES: readonly string[] = Object.keys(SETTING_READERS);

/** Whether `name` is one of a sign-in provider's settings (`GITHUB_CLIENT_ID`, …). */
export function isProviderSetting(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*_(CLIENT_ID|CLIENT_SECRET|ISSUER|LABEL)$/.test(name);
}

/**
 * Reads the settings from an environment.
 * @throws {ConfigError} naming the variable and what is wrong with it.
 */
export function loadConfig(environment: Record<string, string | undefined>): AppConfig {
  let settings: SettingsRead<typeof SETTING_READERS>;
  try {
    settings = readSettings(environment, SETTING_READERS);
  } catch (error) {
    if (error instanceof InvalidSetting) throw new ConfigError(error.message);
    throw error;
  }
  if (settings.MAIL_ADAPTER !== undefined) {
    const missing = REQUIRED_MAIL_SETTINGS[settings.MAIL_ADAPTER].filter(
      (name) => settings[name as keyof typeof settings] === undefined,
    );
    if (missing.length > 0) {
      throw new ConfigError(
        `${new Intl.ListFormat("en").format(missing)} ${missing.length === 1 ? "is" : "are"} required when MAIL_ADAPTER is ${settings.MAIL_ADAPTER}`,
      );
    }
  }
  let oauthProviders: OAuthProvider[];
  try {
    oauthProviders = oauthProvidersFromEnv(environment);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (oauthProviders.length > 0 && settings.APP_URL === undefined) {
    throw new ConfigError(
      "APP_URL is required when sign-in providers are configured: it makes their redirect address",
    );
  }
  const captcha = captchaOf(settings);
  const allowedHosts = hostsOf(settings.APP_URL, settings.ALLOWED_HOSTS);
  if (settings.NODE_ENV === "production" && allowedHosts.length === 0) {
    throw new ConfigError(
      "APP_URL or ALLOWED_HOSTS is required in production: requests are served only for those hosts",
    );
  }
  return {
    port: settings.PORT,
    host: settings.HOST,
    databasePath: settings.DATABASE_PATH,
    databaseUrl: settings.DATABASE_URL,
    webConcurrency: settings.WEB_CONCURRENCY,
    production: settings.NODE_ENV === "production",
    secretKeyBase: settings.SECRET_KEY_BASE,
    secretKeyBasePrevious: settings.SECRET_KEY_BASE_PREVIOUS,
    appUrl: settings.APP_URL?.replace(/\/$/, ""),
    allowedOrigins: parseAllowedOrigins(settings.ALLOWED_ORIGINS),
    allowedHosts,
    trustProxy: settings.TRUST_PROXY,
    mailAdapter: settings.MAIL_ADAPTER ?? (settings.NODE_ENV === "production" ? undefined : "log"),
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM ?? "Tessera <no-reply@localhost>",
    mailApiUrl: settings.MAIL_API_URL,
    mailCredentials: {
      resendApiKey: settings.RESEND_API_KEY,
      postmarkServerToken: settings.POSTMARK_SERVER_TOKEN,
      awsRegion: settings.AWS_REGION,
      awsAccessKeyId: settings.AWS_ACCESS_KEY_ID,
      awsSecretAccessKey: settings.AWS_SECRET_ACCESS_KEY,
    },
    render: {
      url: settings.RENDER_URL,
      secret: settings.RENDER_SECRET,
      token: settings.RENDER_TOKEN,
    },
    sweepIntervalSeconds: settings.SWEEP_INTERVAL_SECONDS,
    trackedSessions: settings.TRACKED_SESSIONS !== "off",
    oauthProviders,
    uploadsPath: settings.UPLOADS_PATH,
    credentialCacheMs: settings.CREDENTIAL_CACHE_MS,
    webhookRetentionDays: settings.WEBHOOK_RETENTION_DAYS,
    auditRetentionDays: settings.AUDIT_RETENTION_DAYS,
    refreshTokenTtlSeconds: settings.REFRESH_TOKEN_TTL,
    adminEmails: settings.ADMIN_EMAILS,
    ...jwtSettingsOf(settings),
    outboundAllowHosts: settings.OUTBOUND_ALLOW_HOSTS,
    outboundRetrySchedule: settings.OUTBOUND_RETRY_SCHEDULE,
    outboundRetentionDays: settings.OUTBOUND_RETENTION_DAYS,
    outboundMaxEndpoints: settings.OUTBOUND_MAX_ENDPOINTS,
    outboundWebhooks: settings.OUTBOUND_WEBHOOKS !== "off",
    ...pwnedPasswordsOf(settings),
    pwnedPasswordsTimeoutMs: settings.PWNED_PASSWORDS_TIMEOUT_MS,
    captcha,
    webhookSecrets: {
      orders: settings.ORDERS_WEBHOOK_SECRET,
      github: settings.GITHUB_WEBHOOK_SECRET,
      stripe: settings.STRIPE_WEBHOOK_SECRET,
      billing: settings.BILLING_WEBHOOK_SECRET,
    },
  };
}

const CAPTCHA_SETTINGS = ["CAPTCHA_PROVIDER", "CAPTCHA_SITE_KEY", "CAPTCHA_SECRET"] as const;

/**
 * The captcha's settings: none of the three, or all of them (`CAPTCHA_VERIFY_URL` only with
 * them).
 * @throws {ConfigError} naming the settings missing beside the ones given.
 */
function captchaOf(settings: {
  readonly CAPTCHA_PROVIDER: CaptchaSettings["provider"] | undefined;
  readonly CAPTCHA_SITE_KEY: string | undefined;
  readonly CAPTCHA_SECRET: string | undefined;
  readonly CAPTCHA_VERIFY_URL: string | undefined;
}): CaptchaSettings | undefined {
  const missing = CAPTCHA_SETTINGS.filter((name) => settings[name] === undefined);
  if (missing.length === CAPTCHA_SETTINGS.length) {
    if (settings.CAPTCHA_VERIFY_URL === undefined) return undefined;
    throw new ConfigError(
      "CAPTCHA_VERIFY_URL is set without a captcha: set CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY and CAPTCHA_SECRET too",
    );
  }
  if (missing.length > 0) {
    throw new ConfigError(
      `${new Intl.ListFormat("en").format(missing)} ${missing.length === 1 ? "is" : "are"} required with a captcha: set CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY and CAPTCHA_SECRET together, or none of them`,
    );
  }
  return {
    provider: settings.CAPTCHA_PROVIDER as CaptchaSettings["provider"],
    siteKey: settings.CAPTCHA_SITE_KEY as string,
    secret: settings.CAPTCHA_SECRET as string,
    ...(settings.CAPTCHA_VERIFY_URL === undefined
      ? {}
      : { verifyUrl: settings.CAPTCHA_VERIFY_URL }),
  };
}

/**
 * `APP_URL`'s host and the hosts of `ALLOWED_HOSTS`, normalized, without repeats.
 * @throws {ConfigError} naming an `ALLOWED_HOSTS` entry that is not a host name.
 */
function hostsOf(appUrl: string | undefined, listed: string | undefined): string[] {
  const hosts: string[] = [];
  const appHost = appUrl === undefined ? undefined : normalizeHost(new URL(appUrl).host);
  if (appHost !== undefined) hosts.push(appHost);
  try {
    hosts.push(...parseAllowedHosts(listed));
  } catch (error) {
    throw new ConfigError(`ALLOWED_HOSTS is not valid: ${(error as Error).message}`);
  }
  return [...new Set(hosts)];
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

/**
 * The hosts of `OUTBOUND_ALLOW_HOSTS`, lower case, IPv6 without brackets.
 * @throws {InvalidSetting} naming an entry that is not a host alone (a URL, a port).
 */
function outboundHostsOf(listed: string | undefined): string[] {
  const hosts: string[] = [];
  for (const entry of (listed ?? "").split(",")) {
    const trimmed = entry.trim().toLowerCase();
    if (trimmed === "") continue;
    const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
    const isIpv6 = bare.includes(":") && URL.canParse(`http://[${bare}]/`);
    if (!isIpv6 && !HOST_NAME.test(bare)) {
      throw new InvalidSetting(
        `"${entry.trim()}" is not a host: write the host alone, such as 127.0.0.1 or hooks.internal`,
      );
    }
    hosts.push(bare);
  }
  return [...new Set(hosts)];
}

/** The longest wait `OUTBOUND_RETRY_SCHEDULE` takes: one week, in seconds. */
const LONGEST_RETRY_SECONDS = 7 * 24 * 60 * 60;

/**
 * The schedule `OUTBOUND_RETRY_SCHEDULE` lists, in seconds (fractions allowed to the
 * millisecond, so tests can retry at once); svix's when unset.
 * @throws {InvalidSetting} naming an entry that is not such a wait.
 */
function retryScheduleOf(listed: string | undefined): RetrySchedule {
  if (listed === undefined) return WEBHOOK_RETRY_SCHEDULE;
  const entries = listed.split(",").map((entry) => entry.trim());
  if (entries.length > 20) throw new InvalidSetting("expected at most 20 waits");
  const delaysMs: number[] = [];
  for (const entry of entries) {
    if (!/^\d+(\.\d{1,3})?$/.test(entry) || Number(entry) > LONGEST_RETRY_SECONDS) {
      throw new InvalidSetting(
        `"${entry}" is not a wait: expected seconds from 0 to ${LONGEST_RETRY_SECONDS}, comma-separated, such as 5,300,1800`,
      );
    }
    delaysMs.push(Math.round(Number(entry) * 1000));
  }
  return { delaysMs };
}

/** Have I Been Pwned's range API: `PWNED_PASSWORDS_URL`'s default. */
const PWNED_PASSWORDS_DEFAULT_URL = "https://api.pwnedpasswords.com";

/**
 * `PWNED_PASSWORDS` (on by default in production only) and `PWNED_PASSWORDS_URL`, without a
 * trailing slash.
 * @throws {ConfigError} for an `http:` URL in production, which the outbound guard refuses
 * there: every check would be skipped.
 */
function pwnedPasswordsOf(settings: {
  readonly NODE_ENV: string | undefined;
  readonly PWNED_PASSWORDS: string | undefined;
  readonly PWNED_PASSWORDS_URL: string | undefined;
}): Pick<AppConfig, "pwnedPasswords" | "pwnedPasswordsUrl"> {
  const production = settings.NODE_ENV === "production";
  const pwnedPasswords = (settings.PWNED_PASSWORDS ?? (production ? "1" : "0")) === "1";
  const url = (settings.PWNED_PASSWORDS_URL ?? PWNED_PASSWORDS_DEFAULT_URL).replace(/\/+$/, "");
  if (pwnedPasswords && production && !url.startsWith("https://")) {
    throw new ConfigError(
      "PWNED_PASSWORDS_URL must be an https:// URL in production: outbound requests there are https only",
    );
  }
  return { pwnedPasswords, pwnedPasswordsUrl: url };
}

/**
 * `JWT_ALGORITHM` (default HS256), `JWT_PRIVATE_KEYS` and `JWT_AUDIENCE`.
 * @throws {ConfigError} for keys or an audience given with HS256, which would not use them.
 */
function jwtSettingsOf(settings: {
  readonly JWT_ALGORITHM: "HS256" | "EdDSA" | "ES256" | undefined;
  readonly JWT_PRIVATE_KEYS: string | undefined;
  readonly JWT_AUDIENCE: string | undefined;
}): Pick<AppConfig, "jwtAlgorithm" | "jwtPrivateKeys" | "jwtAudience"> {
  const jwtAlgorithm = settings.JWT_ALGORITHM ?? "HS256";
  if (jwtAlgorithm === "HS256") {
    for (const name of ["JWT_PRIVATE_KEYS", "JWT_AUDIENCE"] as const) {
      if (settings[name] !== undefined) {
        throw new ConfigError(`${name} is used only with JWT_ALGORITHM=EdDSA or ES256`);
      }
    }
  }
  return {
    jwtAlgorithm,
    jwtPrivateKeys: settings.JWT_PRIVATE_KEYS,
    jwtAudience: settings.JWT_AUDIENCE,
  };
}
