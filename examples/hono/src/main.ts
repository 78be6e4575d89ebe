// Sign-in and a GitHub webhook added to an Hono app on Node: the whole wiring.

import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { clientAddress, mount, securityHeaders, type TesseraEnv } from "@tessera/hono";
import { cookieSession, type SessionEnv } from "@tessera/session/hono";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import { Hono } from "hono";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "hono");
const database = openSqliteFile(settings.databasePath);
await applyMigrations(database, [...accountMigrations, ...webhookMigrations]);

const accounts = accountRoutes({
  ...sqlAccountStores(database),
  secretKeyBase: settings.secretKeyBase,
  mailer: settings.mailer,
  appUrl: settings.appUrl,
});
// POST /webhooks/github, on when GITHUB_WEBHOOK_SECRET is set.
const webhooks = settings.githubWebhookSecret
  ? [
      webhookRoute({
        source: "github",
        verify: githubSignatureVerifier({ secret: settings.githubWebhookSecret }),
        eventIdHeader: "X-GitHub-Delivery",
        store: new SqlWebhookEventStore(database),
        effect: (event) => console.log(`GitHub delivery ${event.id} recorded`),
      }),
    ]
  : [];

const app = new Hono<TesseraEnv & SessionEnv>();
app.use(securityHeaders());
app.use(clientAddress({ getConnInfo, trustProxy: settings.trustProxy }));
// Optional: the routes open the cookie themselves; with it, the app's own pages see the session.
app.use(cookieSession(accounts.sessions));
mount(app, [...accounts.routes, ...webhooks]);
app.get("/", (c) =>
  c.html(
    c.get("session").userId === undefined
      ? '<a href="/signup">Sign up</a> <a href="/login">Log in</a>'
      : '<a href="/account">Your account</a>',
  ),
);
serve({ fetch: app.fetch, port: settings.port, hostname: settings.host }, (info) => {
  console.log(`Hono example listening on http://${settings.host}:${info.port}`);
});
