import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Database from "better-sqlite3";
import { BearerCheck } from "./bare/bearer-check.js";
import { BillingWebhook } from "./bare/billing-webhook.js";
import { CreateNote } from "./bare/create-note.js";
import { deriveKeys } from "./bare/derived-keys.js";
import { HomePage } from "./bare/home-page.js";
import { sendError, sendJson } from "./bare/http-answer.js";
import { SessionCookieCipher } from "./bare/session-cookie.js";

// The "limit" contender of issue 33: the example app's hot paths written by hand on node:http,
// node:crypto and better-sqlite3, doing the same work per request — the host check, the same
// checks of credentials, cookies and bodies, the same SQL statements on the same file (the
// app's own, migrated by the app), the same answer bytes and headers.
// What it skips, knowingly: language negotiation (it always answers English, as the app does
// for the bench's requests, which send no Accept-Language); the app's memory of verified JWTs
// (the bare server checks the HMAC every time, which costs it more, not less); the decoding of
// a note's fields the bench does not send; reading back why a webhook claim was lost; the
// busy_timeout juggling around BEGIN IMMEDIATE (one process: it never waits for the lock);
// logging, and every route the bench does not call (404).
// Settings: DATABASE_PATH (required), SECRET_KEY_BASE, BILLING_WEBHOOK_SECRET (`whsec_…`),
// PORT (0 for any), ALLOWED_HOSTS (one host; default 127.0.0.1).

const databasePath = process.env.DATABASE_PATH;
if (!databasePath) throw new Error("DATABASE_PATH names the file the app migrated");
const database = new Database(databasePath, { fileMustExist: true });
// The app's connection settings (@tessera/sqlite's connectionSettings).
database.exec(
  "PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL",
);

const keys = deriveKeys(process.env.SECRET_KEY_BASE ?? "");
const billingKey = Buffer.from(
  (process.env.BILLING_WEBHOOK_SECRET ?? "").replace(/^whsec_/, ""),
  "base64",
);
const allowedHost = process.env.ALLOWED_HOSTS ?? "127.0.0.1";
const bearer = new BearerCheck(database, keys.jwt);
const billing = new BillingWebhook(database, billingKey);
const createNote = new CreateNote(database);
const homePage = new HomePage(database, new SessionCookieCipher(keys.sessionCookie));
const findTotp = database.prepare<[number], { confirmed_at: string | null }>(
  "SELECT user_id, sealed_key, confirmed_at, last_used_step FROM user_totp WHERE user_id = ?",
);

function hostOf(request: IncomingMessage): string {
  const host = request.headers.host ?? "";
  const colon = host.lastIndexOf(":");
  return colon > 0 && !host.endsWith("]") ? host.slice(0, colon) : host;
}

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (hostOf(request) !== allowedHost) {
    return sendError(response, 400, "bad_request", "This host is not served here", "plain");
  }
  const path = request.url ?? "/";
  const method = request.method;
  if (method === "GET" && path === "/api/health") {
    return sendJson(response, 200, '{"status":"ok"}', "plain");
  }
  if (method === "POST" && path === "/webhooks/billing") {
    return billing.serve(request, response, "three");
  }
  if (method === "POST" && path === "/webhooks/billing/one-write") {
    return billing.serve(request, response, "one");
  }
  if (method === "GET" && path === "/") return homePage.serve(request, response, Date.now());
  if (path === "/api/auth/me" || path === "/api/notes") {
    const user = bearer.user(request, Date.now());
    if (user === undefined) return sendError(response, 401, "unauthenticated", "Unauthorized");
    if (method === "POST" && path === "/api/notes") {
      return createNote.serve(request, response, user.id);
    }
    if (method === "GET" && path === "/api/auth/me") {
      const totp = findTotp.get(user.id);
      const answer = {
        id: user.id,
        email: user.email,
        created_at: user.created_at,
        updated_at: user.updated_at,
        name: user.name,
        mfa: { totp: totp?.confirmed_at != null, passkeys: 0 },
      };
      return sendJson(response, 200, JSON.stringify(answer));
    }
  }
  sendError(response, 404, "not_found", "Not found");
}

const server = createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) sendError(response, 500, "internal_error", "Internal error");
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`bare server listening on http://127.0.0.1:${port}`);
});
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  database.close();
});
