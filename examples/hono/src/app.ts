// Sign-in and a GitHub webhook added to a Hono app: the whole wiring.
import { getConnInfo } from "@hono/node-server/conninfo";
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { clientAddress, mount, securityHeaders, type TesseraEnv } from "@tessera/hono";
import { cookieSession, type SessionEnv } from "@tessera/session/hono";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import { Hono } from "hono";
import type { Settings } from "./settings.js";

/** The example's Hono app on its SQLite file, migrated; `main.ts` serves it on Node. */
export async function exampleApp(settings: Settings): Promise<Hono<TesseraEnv & SessionEnv>> {
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
  // One of the app's own routes: the signed-in user from the session cookie, in one call.
  app.get("/me", async (c) => {
    const user = await accounts.currentUser(c.req.raw);
    return user ? c.text(user.email) : c.text("Sign in first.", 401);
  });
  return app;
}
