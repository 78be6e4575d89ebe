// Sign-in and a GitHub webhook added to an Fastify 5 app: the whole wiring.
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { fastifyRoutes } from "@tessera/node";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import Fastify from "fastify";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "fastify");
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

const app = Fastify();
// Before Fastify's body parsing: webhook signatures cover the raw bytes.
await app.register(
  fastifyRoutes([...accounts.routes, ...webhooks], { trustProxy: settings.trustProxy }),
);
app.get("/", (_request, reply) =>
  reply.type("text/html").send('<a href="/signup">Sign up</a> <a href="/login">Log in</a>'),
);
const address = await app.listen({ port: settings.port, host: settings.host });
console.log(`Fastify example listening on ${address}`);
