// Sign-in and a GitHub webhook added to an Fastify 5 app: the whole wiring.
import { accountRoutes } from "@tessera/accounts";
import { toNodeHandler } from "@tessera/node";
import {
  accountMigrations,
  applyMigrations,
  SqliteWebhookEventStore,
  sqliteAccountStores,
  webhookMigrations,
} from "@tessera/sqlite";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import Fastify from "fastify";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "fastify");
const database = openSqliteFile(settings.databasePath);
await applyMigrations(database, [...accountMigrations, ...webhookMigrations]);

const accounts = accountRoutes({
  ...sqliteAccountStores(database),
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
        store: new SqliteWebhookEventStore(database),
        effect: (event) => console.log(`GitHub delivery ${event.id} recorded`),
      }),
    ]
  : [];

const routes = [...accounts.routes, ...webhooks];
const tessera = toNodeHandler(routes, { trustProxy: settings.trustProxy });
const app = Fastify();
await app.register(async (scope) => {
  // Tessera reads each body itself (webhook signatures cover the raw bytes): Fastify must not
  // parse it. Content-type parsers are scoped, so the app's other routes keep theirs.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
  for (const route of routes) {
    scope.route({
      method: route.method,
      url: route.path,
      handler: (request, reply) => {
        reply.hijack();
        tessera(request.raw, reply.raw);
      },
    });
  }
});
app.get("/", (_request, reply) =>
  reply.type("text/html").send('<a href="/signup">Sign up</a> <a href="/login">Log in</a>'),
);
const address = await app.listen({ port: settings.port, host: settings.host });
console.log(`Fastify example listening on ${address}`);
