import { encodeHex } from "@tessera/crypto";

/**
 * Says whether a password has appeared in a known data breach. It never throws: a check that
 * cannot be made (the service down or slow) answers `false`, so a new password is never
 * refused for the network's sake ({@link pwnedPasswords} fails open).
 */
export type BreachedPasswordCheck = (password: string) => Promise<boolean>;

/** The one request {@link pwnedPasswords} makes: a GET of a range, with `Add-Padding`. */
export interface PwnedRangeRequest {
  readonly method: "GET";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What became of a {@link PwnedRangeRequest}, in the shape of `@tessera/outbound`'s
 * `OutboundOutcome`: any answer with its text (and `complete: false` when it was cut), or why
 * there was none.
 */
export type PwnedRangeOutcome =
  | {
      readonly kind: "answered";
      readonly status: number;
      readonly answer: string;
      readonly complete?: boolean | undefined;
    }
  | { readonly kind: "refused" | "timeout" | "network-error"; readonly message: string };

/**
 * Sends a {@link PwnedRangeRequest}: `nodeGuardedFetch` or `guardedFetch` of
 * `@tessera/outbound` fit as they are (built with an `answerBytes` of
 * {@link PWNED_RANGE_ANSWER_BYTES}).
 */
export type PwnedRangeFetch = (request: PwnedRangeRequest) => Promise<PwnedRangeOutcome>;

/** Options of {@link pwnedPasswords}. */
export interface PwnedPasswordsOptions {
  /** The range API's base URL (default {@link PWNED_PASSWORDS_URL}); a local double in tests. */
  readonly url?: string | undefined;
  /** Sends the range request: the app's guarded outbound fetch. */
  readonly fetch: PwnedRangeFetch;
  /** How long a check may wait for its answer before it lets the password through (500 ms). */
  readonly timeoutMs?: number | undefined;
  /**
   * Told, in one line, why a check could not be made (default `console.error`). The line never
   * holds the password or any part of its hash.
   */
  readonly onError?: ((line: string) => void) | undefined;
}

/** Have I Been Pwned's Pwned Passwords API. */
export const PWNED_PASSWORDS_URL = "https://api.pwnedpasswords.com";
/** How long a breached-password check waits by default: 500 ms. */
export const PWNED_PASSWORDS_TIMEOUT_MS = 500;
/**
 * The answer a range request should keep: 128 KiB. A padded range is 30-40 KiB; a longer answer
 * is taken as an error, never as a partial list.
 */
export const PWNED_RANGE_ANSWER_BYTES = 128 * 1024;

// A line of a range: the 35 hex digits after the prefix, and how often it was seen.
const RANGE_LINE = /^([0-9A-Fa-f]{35}):(\d+)$/;

/**
 * A {@link BreachedPasswordCheck} on Have I Been Pwned's range API, with k-anonymity: the
 * password's SHA-1 is made here and only its first 5 hex digits leave, in
 * `GET <url>/range/<PREFIX>` with `Add-Padding: true`; the suffixes answered are compared here
 * (a padding line, count 0, is no hit). It fails open: no answer within `timeoutMs`, a network
 * error, a refusal of the guard, a status other than 200, a cut or malformed answer each let the
 * password through and write one line to `onError`.
 */
export function pwnedPasswords(options: PwnedPasswordsOptions): BreachedPasswordCheck {
  const base = (options.url ?? PWNED_PASSWORDS_URL).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? PWNED_PASSWORDS_TIMEOUT_MS;
  const report = options.onError ?? ((line: string) => console.error(line));
  return async (password) => {
    const hash = await sha1Hex(password);
    const prefix = hash.slice(0, 5);
    const suffix = hash.slice(5);
    const failOpen = (reason: string) => {
      // A message of the fetch may quote the URL: its prefix is part of the hash, kept in.
      const said = reason.replaceAll(`/range/${prefix}`, "/range/…");
      report(`The breached-password check at ${base} was skipped (${said}): password accepted`);
      return false;
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    let outcome: PwnedRangeOutcome | "late";
    try {
      outcome = await Promise.race([
        options.fetch({
          method: "GET",
          url: `${base}/range/${prefix}`,
          headers: { "add-padding": "true" },
        }),
        late,
      ]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failOpen(`the request failed: ${message}`);
    } finally {
      clearTimeout(timer);
    }
    if (outcome === "late") return failOpen(`no answer within ${timeoutMs} ms`);
    if (outcome.kind !== "answered") return failOpen(`${outcome.kind}: ${outcome.message}`);
    if (outcome.status !== 200) return failOpen(`status ${outcome.status}`);
    if (outcome.complete === false) return failOpen("the answer was longer than expected");
    const seen = timesSeen(outcome.answer, suffix);
    if (seen === undefined) return failOpen("the answer is not a range");
    return seen > 0;
  };
}

/**
 * How often the range `answer` says `suffix` was seen (0 when it is absent or a padding line),
 * or undefined when the answer is not a range (a line of another shape, or no line at all).
 */
function timesSeen(answer: string, suffix: string): number | undefined {
  const lines = answer.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return undefined;
  let seen = 0;
  for (const line of lines) {
    const match = RANGE_LINE.exec(line);
    if (!match) return undefined;
    if (match[1]!.toUpperCase() === suffix) seen = Math.max(seen, Number(match[2]));
  }
  return seen;
}

/** The SHA-1 of the password's UTF-8 bytes, in upper-case hex as the range API writes it. */
async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(password));
  return encodeHex(new Uint8Array(digest)).toUpperCase();
}
