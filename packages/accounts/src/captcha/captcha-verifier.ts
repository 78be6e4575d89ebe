import { type AttemptCounter, rateLimitClientKey } from "@tessera/http";
import { type CaptchaFetch, webCaptchaFetch } from "./captcha-fetch.js";
import { CAPTCHA_PROVIDERS, type CaptchaProviderName } from "./captcha-providers.js";

/** A captcha service and the keys of this site with it. */
export interface CaptchaSettings {
  readonly provider: CaptchaProviderName;
  /** The public key the widget is rendered with. */
  readonly siteKey: string;
  /** The secret `siteverify` is called with; never leaves the server otherwise. */
  readonly secret: string;
  /** Replaces the provider's `siteverify` address (a local double in tests, a proxy). */
  readonly verifyUrl?: string | undefined;
}

/** What {@link captchaVerifier} is built from. */
export interface CaptchaVerifierOptions extends CaptchaSettings {
  /**
   * Sends the verification request: the app's guarded fetch (`nodeGuardedFetch` of
   * `@tessera/outbound/node`), or by default {@link webCaptchaFetch}.
   */
  readonly fetch?: CaptchaFetch | undefined;
  /**
   * Told when a token could not be verified at all (no answer, an error status, not JSON):
   * the request is refused all the same. Default: one line on stderr, without token or secret.
   */
  readonly onUnverifiable?: ((message: string) => void) | undefined;
}

/** Why a token was not accepted. */
export type CaptchaRefusalReason =
  /** No token was sent (or an empty one). */
  | "missing"
  /** Longer than the provider's tokens can be: refused without a request. */
  | "too-long"
  /** The provider answered `success: false`. */
  | "refused"
  /** No usable answer: a network error, a timeout, an error status or malformed JSON. */
  | "unverifiable"
  /** The client sent more tokens than its limit allows: refused without asking the provider. */
  | "limited";

/** The provider's judgement of a token: accepted, or why not (with its `error-codes`). */
export type CaptchaVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: CaptchaRefusalReason;
      readonly errorCodes: readonly string[];
    };

/** Asks the provider about one token, with the client's address when known. */
export type CaptchaVerifier = (
  token: string | undefined,
  remoteIp?: string | undefined,
) => Promise<CaptchaVerdict>;

function refusal(reason: CaptchaRefusalReason, errorCodes: readonly string[] = []): CaptchaVerdict {
  return { ok: false, reason, errorCodes };
}

/**
 * Refuses captcha settings that cannot work, at once rather than at the first sign-in.
 * @throws {TypeError} naming the setting and what to pass.
 */
export function checkCaptchaSettings(settings: CaptchaSettings): void {
  if (!Object.hasOwn(CAPTCHA_PROVIDERS, settings.provider)) {
    throw new TypeError(
      `captcha: \`provider\` must be one of ${Object.keys(CAPTCHA_PROVIDERS).join(", ")}`,
    );
  }
  for (const name of ["siteKey", "secret"] as const) {
    if (typeof settings[name] !== "string" || settings[name].trim() === "") {
      throw new TypeError(`captcha: \`${name}\` is missing: pass the one the provider gave`);
    }
  }
  if (settings.verifyUrl !== undefined && !URL.canParse(settings.verifyUrl)) {
    throw new TypeError("captcha: `verifyUrl` is not a URL");
  }
}

/** The `siteverify` answer read strictly: `success` must be the boolean `true`. */
function verdictOf(answer: string): CaptchaVerdict | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { success } = parsed as { success?: unknown };
  if (typeof success !== "boolean") return undefined;
  if (success) return { ok: true };
  const codes = (parsed as { "error-codes"?: unknown })["error-codes"];
  const errorCodes = Array.isArray(codes)
    ? codes.filter((code): code is string => typeof code === "string")
    : [];
  return refusal("refused", errorCodes);
}

/**
 * A verifier of Cloudflare Turnstile or hCaptcha tokens: one form-encoded `POST` of `secret`,
 * `response` (the token) and `remoteip` (hCaptcha also `sitekey`) to the provider's
 * `siteverify`, whose JSON `success` decides. It fails closed: a missing or over-long token
 * (refused without a request), a network error, a timeout, an error status or an answer that
 * is not the documented JSON all refuse the token.
 *
 * @example
 * ```ts
 * import { captchaVerifier } from "@tessera/accounts";
 *
 * const verify = captchaVerifier({
 *   provider: "turnstile",
 *   siteKey: process.env.CAPTCHA_SITE_KEY!,
 *   secret: process.env.CAPTCHA_SECRET!,
 * });
 * const verdict = await verify("token-from-the-form", "203.0.113.7");
 * console.log(verdict.ok ? "human" : verdict.reason);
 * ```
 * @throws {TypeError} naming the setting, for an unknown provider or a blank key or secret.
 */
export function captchaVerifier(options: CaptchaVerifierOptions): CaptchaVerifier {
  checkCaptchaSettings(options);
  const provider = CAPTCHA_PROVIDERS[options.provider];
  const url = options.verifyUrl ?? provider.verifyUrl;
  const send = options.fetch ?? webCaptchaFetch();
  const report =
    options.onUnverifiable ??
    ((message: string) => console.error(`A captcha token could not be verified: ${message}`));
  return async (token, remoteIp) => {
    if (token === undefined || token === "") return refusal("missing");
    if (token.length > provider.maximumTokenLength) return refusal("too-long");
    const form = new URLSearchParams({ secret: options.secret, response: token });
    if (remoteIp !== undefined && remoteIp !== "" && remoteIp !== "unknown") {
      form.set("remoteip", remoteIp);
    }
    // hCaptcha checks the token was made for this site when told which one.
    if (provider.name === "hcaptcha") form.set("sitekey", options.siteKey);
    const outcome = await send({
      url,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form.toString(),
    });
    if (outcome.kind !== "answered") {
      report(`${outcome.kind}: ${outcome.message}`);
      return refusal("unverifiable");
    }
    const verdict =
      outcome.status >= 200 && outcome.status < 300 ? verdictOf(outcome.answer) : undefined;
    if (!verdict) {
      report(`the provider answered ${outcome.status} without the expected JSON`);
      return refusal("unverifiable");
    }
    return verdict;
  };
}

/** The rate-limit group counting the tokens a client asks the provider about. */
export const CAPTCHA_RATE_LIMIT_GROUP = "captcha";

/**
 * `verify`, asking the provider only for tokens within the client's limit (`limiter`, group
 * {@link CAPTCHA_RATE_LIMIT_GROUP}, the client address as key): the check runs before the
 * routes' own limits, so without this a client posting junk tokens would make the app call the
 * provider without bound. A token over the limit is refused as `limited`.
 */
export function limitedCaptchaVerifier(
  verify: CaptchaVerifier,
  limiter: AttemptCounter,
): CaptchaVerifier {
  return async (token, remoteIp) => {
    if (token === undefined || token === "") return verify(token, remoteIp);
    const decision = await limiter.attempt(
      CAPTCHA_RATE_LIMIT_GROUP,
      rateLimitClientKey(remoteIp ?? ""),
    );
    return decision.allowed ? verify(token, remoteIp) : refusal("limited");
  };
}
