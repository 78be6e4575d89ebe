import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database, Statement } from "better-sqlite3";
import type { UserRow } from "./bearer-check.js";
import {
  cookieValue,
  type Flash,
  SESSION_COOKIE,
  type SessionCookieCipher,
  type SessionPayload,
} from "./session-cookie.js";
import { sqlTimestamp } from "./timestamp.js";

const USER_COLUMNS = "id, email, password_digest, confirmed_at, created_at, updated_at, name";
const SESSION_COLUMNS =
  "id, user_id, ip_address, browser, user_agent, last_seen_at, expires_at, created_at, factors";
const LAST_SEEN_WRITE_INTERVAL_MS = 3_600_000;

interface TrackedSessionRow {
  readonly id: number;
  readonly last_seen_at: string;
  readonly expires_at: string;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function epochOf(timestamp: string): number {
  return Date.parse(`${timestamp.replace(" ", "T")}Z`);
}

function flashList(flashes: readonly Flash[], kind: Flash["kind"]): string {
  return flashes
    .filter((flash) => flash.kind === kind)
    .map((flash) => `<p class="flash flash-${kind}">${escapeHtml(flash.message)}</p>`)
    .join("");
}

/** The app's English home page, byte for byte, for a signed-in user or a visitor. */
function homeHtml(email: string | undefined, flashes: readonly Flash[]): string {
  const account = email
    ? `<a href="/posts">Posts</a> <a href="/comments">Comments</a> <a href="/labels">Labels</a> <a href="/reactions">Reactions</a> <a href="/notes">Notes</a>
<a href="/account">${escapeHtml(email)}</a>
<a href="/account/webhooks">Webhooks</a>
<form method="post" action="/logout" class="inline"><button type="submit" class="link">Log out</button></form>`
    : `<a href="/login">Log in</a> <a href="/signup">Sign up</a>`;
  const next = email
    ? `You are signed in. See <a href="/account">your account</a>.`
    : `<a href="/signup">Sign up</a> or <a href="/login">log in</a> to start.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Home · Tessera example</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<header class="site-header">
<a class="brand" href="/">Tessera example</a>
<nav aria-label="Account">${account}</nav>
</header>
<main id="main">
<div class="flashes">
<div role="status" aria-live="polite">${flashList(flashes, "notice")}</div>
<div role="alert">${flashList(flashes, "alert")}</div>
</div>
<h1>Tessera example app</h1>
<p>The whole Tessera service in one process on SQLite: accounts, typed records, webhooks and external jobs, served as HTML pages and as a JSON API.</p>
<p>${next}</p>
</main>
</body>
</html>
`;
}

/**
 * `GET /` as the app serves it, by hand: open the session cookie, check the sign-in's expiry
 * and its tracked-session row (SELECT, and the last-seen stamp when an hour old), read the
 * user, take the flashes, and when the session changed seal it again into a `Set-Cookie`;
 * answer the page with the app's HTML headers and a fresh CSP nonce.
 */
export class HomePage {
  readonly #findTracked: Statement<[string, number], TrackedSessionRow>;
  readonly #touchTracked: Statement<[string, string, number, string]>;
  readonly #findUser: Statement<[number], UserRow>;

  constructor(
    database: Database,
    private readonly cookies: SessionCookieCipher,
  ) {
    this.#findTracked = database.prepare(
      `SELECT ${SESSION_COLUMNS} FROM user_sessions WHERE digest = ? AND user_id = ?`,
    );
    this.#touchTracked = database.prepare(
      "UPDATE user_sessions SET last_seen_at = ?, updated_at = ? WHERE id = ? AND last_seen_at <= ?",
    );
    this.#findUser = database.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
  }

  serve(request: IncomingMessage, response: ServerResponse, now: number): void {
    const sealed = cookieValue(request.headers.cookie, SESSION_COOKIE);
    const opened = sealed === undefined ? undefined : this.cookies.open(sealed);
    let changed = sealed !== undefined && opened === undefined;
    const payload: SessionPayload = opened ?? { v: 1 };
    if (payload.user && now >= payload.user.expiresAt) {
      delete payload.user;
      changed = true;
    }
    if (payload.user && !this.#tracked(payload.user.id, payload.values?.tracked, now)) {
      delete payload.user;
      if (payload.values) delete payload.values.tracked;
      changed = true;
    }
    const user = payload.user ? this.#findUser.get(payload.user.id) : undefined;
    const flashes = payload.flashes ?? [];
    if (flashes.length > 0) {
      delete payload.flashes;
      changed = true;
    }
    const nonce = randomBytes(32).toString("base64url");
    const html = homeHtml(user?.email, flashes);
    const headers: Record<string, string | number> = {
      "content-language": "en",
      "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data: https: http:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      "content-type": "text/html; charset=UTF-8",
      "cross-origin-opener-policy": "same-origin",
      "permissions-policy":
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
      "referrer-policy": "strict-origin-when-cross-origin",
      vary: "Accept-Language",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-length": Buffer.byteLength(html),
    };
    if (changed) headers["set-cookie"] = this.#setCookie(payload, now);
    response.writeHead(200, headers);
    response.end(html);
  }

  /** Whether the signed-in session's device row exists and is live (as tracked sessions do). */
  #tracked(userId: number, token: string | undefined, now: number): boolean {
    if (token === undefined) return false;
    const digest = createHash("sha256").update(token).digest("hex");
    const row = this.#findTracked.get(digest, userId);
    if (row === undefined || now >= epochOf(row.expires_at)) return false;
    const staleAt = sqlTimestamp(now - LAST_SEEN_WRITE_INTERVAL_MS);
    if (row.last_seen_at <= staleAt) {
      const seen = sqlTimestamp(now);
      this.#touchTracked.run(seen, seen, row.id, staleAt);
    }
    return true;
  }

  #setCookie(payload: SessionPayload, now: number): string {
    const attributes = "Path=/; HttpOnly; SameSite=Lax";
    const empty = !payload.user && !payload.page && Object.keys(payload.values ?? {}).length === 0;
    if (empty) return `${SESSION_COOKIE}=; Max-Age=0; ${attributes}`;
    const value = this.cookies.seal(payload);
    const user = payload.user;
    if (!user?.rememberMe) return `${SESSION_COOKIE}=${value}; ${attributes}`;
    const maxAge = Math.max(0, Math.floor((user.expiresAt - now) / 1000));
    return `${SESSION_COOKIE}=${value}; Max-Age=${maxAge}; ${attributes}`;
  }
}
