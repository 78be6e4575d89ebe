import { type Clock, systemClock } from "@tessera/core";
import { deriveKeyRing, openPayload, type SecretKeyBase, sealPayload } from "@tessera/crypto";
import {
  type CookieAttributes,
  editResponseHeaders,
  expireCookie,
  isHttpsRequest,
  parseCookies,
  serializeCookie,
} from "@tessera/http";
import { CookieSession, type Session } from "./session.js";
import {
  decodeSessionPayload,
  EMPTY_SESSION_STATE,
  encodeSessionPayload,
  isEmptyState,
  type SessionState,
  signInLifetimeMs,
} from "./session-payload.js";
import { checkSessionSecrets } from "./session-secrets-check.js";
import type { TrackedSessionStore } from "./tracked-session-store.js";
import { checkTrackedSession } from "./tracked-sessions.js";

/**
 * The label the cookie key is derived under from `SECRET_KEY_BASE`. No other key of Tessera uses
 * it, so the cookie key never verifies a JWT, nor a JWT key opens a cookie.
 */
export const SESSION_KEY_LABEL = "tessera session cookie";

/** An app name fit for the cookie name: a letter or digit, then letters, digits, `_`, `-`. */
const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/**
 * The session cookie's name for an app: `_<app>_session` (`tessera` → `_tessera_session`).
 * @throws {RangeError} for an app name that is not 1 to 32 letters, digits, `_` or `-`,
 * starting with a letter or digit.
 */
export function sessionCookieName(appName: string): string {
  if (!APP_NAME.test(appName)) {
    throw new RangeError(`invalid app name ${JSON.stringify(appName)} for the session cookie`);
  }
  return `_${appName}_session`;
}

/** Options for {@link createSessionCookies}. */
export interface SessionCookiesOptions {
  /** Names the cookie `_<appName>_session`; see {@link sessionCookieName}. */
  readonly appName: string;
  /** `SECRET_KEY_BASE` and, after a rotation, `SECRET_KEY_BASE_PREVIOUS`. */
  readonly secrets: SecretKeyBase;
  readonly clock?: Clock | undefined;
  /**
   * Whether cookies carry `Secure`, for every request or decided per request. Omitted: exactly
   * when the request URL is `https:`. Behind a proxy that ends TLS and forwards plain HTTP, pass
   * `true`, or a function that reads the trusted proxy's `X-Forwarded-Proto`.
   */
  readonly secureCookies?: boolean | ((request: Request) => boolean) | undefined;
  /**
   * The device list (tracked sessions): with it, `read` signs out a browser whose device row
   * was ended or expired, and account routes given these cookies start and end device rows.
   */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  /**
   * Whether a signed-in session may go on, asked by `read` for every signed-in session (after
   * the device check): false signs it out there, before any route sees it. Accounts uses it to
   * end an operator's impersonation the moment they may no longer act. Keep it cheap for an
   * ordinary session: it runs on every page.
   */
  readonly checkSignIn?: ((session: Session) => Promise<boolean>) | undefined;
}

/** Reads the session from a request's cookie and writes it back onto the response. */
export interface SessionCookies {
  /** The cookie's name, `_<app>_session`. */
  readonly cookieName: string;
  /** The time source of sign-in expiry (and of tracked sessions). */
  readonly clock: Clock;
  /** The device list these cookies check, when tracked sessions are on. */
  readonly trackedSessions: TrackedSessionStore | undefined;
  /**
   * The request's session. A missing, tampered, truncated, oversized, foreign or malformed
   * cookie, and an expired sign-in, give an empty session (never a throw); such a cookie is
   * deleted at the next commit. With tracked sessions, an ended device is signed out here, and
   * a session `checkSignIn` refuses too.
   */
  read(request: Request): Promise<Session>;
  /**
   * The `Set-Cookie` value that writes the session back, or undefined when nothing changed.
   * For frameworks that set headers their own way (Hono: `c.header(..., { append: true })`).
   * @throws {TypeError} for a session that this object's `read` did not return.
   */
  setCookie(session: Session): Promise<string | undefined>;
  /**
   * Appends {@link SessionCookies.setCookie}'s header to the response, if any, and returns it:
   * the same response, or a copy when its headers are immutable. Call it once per response.
   */
  commit(session: Session, response: Response): Promise<Response>;
}

/** What `read` knew about the request that `commit` needs. */
interface RequestFacts {
  readonly secure: boolean;
  readonly hadCookie: boolean;
}

/**
 * The cookie's value, first occurrence winning. Fetch joins repeated `Cookie` headers with ", "
 * rather than "; ", so commas split pairs too: no cookie-octet is a comma (RFC 6265 §4.1.1) and
 * the sealed value is base64url, so only other apps' malformed cookies could be cut by this.
 */
function readCookieValue(header: string | null, name: string): string | undefined {
  return header === null ? undefined : parseCookies(header.replaceAll(",", ";")).get(name);
}

/**
 * Encrypted cookie sessions (AES-256-GCM under a key derived from `SECRET_KEY_BASE` with
 * {@link SESSION_KEY_LABEL}; the cookie name is authenticated too). Cookies sealed under
 * `SECRET_KEY_BASE_PREVIOUS` keep opening while it is set.
 * @throws {TypeError} for missing secrets (an unset `SECRET_KEY_BASE`), {RangeError} for a
 * secret under 32 characters or an invalid app name: configuration mistakes, found at startup,
 * each naming the option.
 *
 * @example
 * ```ts
 * import { createSessionCookies } from "@tessera/session";
 *
 * const sessions = createSessionCookies({
 *   appName: "notes", // the cookie is `_notes_session`
 *   secrets: { current: process.env.SECRET_KEY_BASE!, previous: process.env.SECRET_KEY_BASE_PREVIOUS },
 * });
 *
 * async function visit(request: Request): Promise<Response> {
 *   const session = await sessions.read(request); // never throws on the cookie
 *   session.flash("notice", "Welcome back.");
 *   const response = new Response("ok");
 *   const setCookie = await sessions.setCookie(session); // undefined when nothing changed
 *   if (setCookie) response.headers.append("Set-Cookie", setCookie);
 *   return response;
 * }
 * ```
 */
export function createSessionCookies(options: SessionCookiesOptions): SessionCookies {
  checkSessionSecrets(options.secrets);
  const cookieName = sessionCookieName(options.appName);
  const keys = deriveKeyRing(options.secrets, SESSION_KEY_LABEL);
  const clock = options.clock ?? systemClock;
  // Sessions this object read, with what it learned of their requests: commit needs both.
  const readSessions = new WeakMap<Session, RequestFacts>();

  async function openCookie(value: string): Promise<{ state: SessionState; stale: boolean }> {
    const opened = await openPayload(keys, value, cookieName);
    const state = opened.ok ? decodeSessionPayload(opened.value) : undefined;
    if (state === undefined) return { state: EMPTY_SESSION_STATE, stale: true };
    // The expiry is checked on every request: at the expiry instant the user is signed out.
    if (state.signIn !== undefined && clock() >= state.signIn.expiresAt) {
      return { state: { ...state, signIn: undefined }, stale: true };
    }
    return { state, stale: false };
  }

  async function setCookie(session: Session): Promise<string | undefined> {
    const facts = readSessions.get(session);
    if (!facts || !(session instanceof CookieSession)) {
      throw new TypeError("this session was not read by these session cookies");
    }
    if (!session.changed) return undefined;
    const attributes: CookieAttributes = {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: facts.secure,
    };
    const { state } = session;
    if (isEmptyState(state)) {
      return facts.hadCookie ? expireCookie(cookieName, attributes) : undefined;
    }
    const sealed = await sealPayload(keys.current, encodeSessionPayload(state), cookieName);
    const signIn = state.signIn;
    if (!signIn?.rememberMe) return serializeCookie(cookieName, sealed, attributes);
    // A remembered cookie lives exactly as long as the sign-in: the whole lifetime when it began
    // in this request (reading the clock again here would floor it to one second less), and what
    // is left when it is rewritten later (a flash), so rewriting never extends it.
    const maxAge = session.signedInNow
      ? signInLifetimeMs(signIn) / 1000
      : Math.max(0, Math.floor((signIn.expiresAt - clock()) / 1000));
    return serializeCookie(cookieName, sealed, { ...attributes, maxAge });
  }

  return {
    cookieName,
    clock,
    trackedSessions: options.trackedSessions,
    async read(request) {
      const secure =
        typeof options.secureCookies === "function"
          ? options.secureCookies(request)
          : (options.secureCookies ?? isHttpsRequest(request));
      const value = readCookieValue(request.headers.get("cookie"), cookieName);
      const { state, stale } =
        value === undefined
          ? { state: EMPTY_SESSION_STATE, stale: false }
          : await openCookie(value);
      const session = new CookieSession(state, clock, stale);
      readSessions.set(session, { secure, hadCookie: value !== undefined });
      if (options.trackedSessions && session.userId !== undefined) {
        await checkTrackedSession(options.trackedSessions, session, clock);
      }
      if (options.checkSignIn && session.userId !== undefined) {
        if (!(await options.checkSignIn(session))) session.signOut();
      }
      return session;
    },
    setCookie,
    async commit(session, response) {
      const header = await setCookie(session);
      return header === undefined
        ? response
        : editResponseHeaders(response, (headers) => headers.append("Set-Cookie", header));
    },
  };
}
