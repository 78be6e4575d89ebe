// Sign-in and a GitHub webhook added to an Express 5 app: the whole wiring.
import type { AddressInfo } from "node:net";
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { toNodeHandler } from "@tessera/node";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import express from "express";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "express");
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

const app = express();
// Express names itself in an X-Powered-By header on every answer unless told not to.
app.disable("x-powered-by");
// Before any body parser: webhook signatures cover the raw bytes.
app.use(toNodeHandler([...accounts.routes, ...webhooks], { trustProxy: settings.trustProxy }));
app.get("/", (_request, response) => {
  response.send('<a href="/signup">Sign up</a> <a href="/login">Log in</a>');
});
const server = app.listen(settings.port, settings.host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Express example listening on http://${settings.host}:${port}`);
});
