// Sign-in and a GitHub webhook added to a Fastify 5 app: the whole wiring.
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { fastifyRoutes, toRequest } from "@tessera/node";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import Fastify, { type FastifyInstance } from "fastify";
import type { Settings } from "./settings.js";

/** The example's Fastify app on its SQLite file, migrated; `main.ts` listens with it. */
export async function exampleApp(settings: Settings): Promise<FastifyInstance> {
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
  // One of the app's own routes: the signed-in user from the session cookie, in one call.
  app.get("/me", async (request, reply) => {
    const user = await accounts.currentUser(toRequest(request.raw));
    if (!user) return reply.code(401).send("Sign in first.");
    return user.email;
  });
  return app;
}
