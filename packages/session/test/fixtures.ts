import { deriveKeyRing, sealPayload } from "@tessera/crypto";
import {
  createSessionCookies,
  SESSION_KEY_LABEL,
  type SessionCookiesOptions,
} from "../src/index.js";

export const SECRET = `${"s".repeat(16)}current-secret-key-base-0123456789`;
export const OLD_SECRET = `${"o".repeat(16)}previous-secret-key-base-0123456789`;
export const COOKIE_NAME = "_tessera_session";
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A clock the test moves by hand. */
export function manualClock(start = T0) {
  let now = start;
  const clock = () => now;
  return Object.assign(clock, {
    set: (time: number) => {
      now = time;
    },
  });
}

/** Session cookies for the app "tessera" with a clock under the test's control. */
export function testSessions(overrides: Partial<SessionCookiesOptions> = {}) {
  const clock = manualClock();
  const sessions = createSessionCookies({
    appName: "tessera",
    secrets: { current: SECRET },
    clock,
    ...overrides,
  });
  return { sessions, clock };
}

/** A request as a browser holding `cookie` (a `name=value` pair, or several) would send it. */
export function browserRequest(url = "http://app.test/", cookie?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookie !== undefined) headers.set("cookie", cookie);
  return new Request(url, { ...init, headers });
}

/** The `name=value` pair a browser sends back for a `Set-Cookie` value. */
export function cookiePair(setCookie: string): string {
  return setCookie.split(";")[0]!;
}

/** The one `Set-Cookie` header of a response; fails the test when there are several. */
export function onlySetCookie(response: Response): string | undefined {
  const all = response.headers.getSetCookie();
  if (all.length > 1) throw new Error(`expected at most one Set-Cookie, got ${all.length}`);
  return all[0];
}

/** Seals any text as a session cookie value with the real key, as only the server could. */
export async function sealWithSessionKey(plaintext: string | Uint8Array, context = COOKIE_NAME) {
  const keys = deriveKeyRing({ current: SECRET }, SESSION_KEY_LABEL);
  return sealPayload(keys.current, plaintext, context);
}
