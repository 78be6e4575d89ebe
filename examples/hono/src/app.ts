// Sign-in, a GitHub webhook, webhooks sent to users and organizations, added to a Hono app: the
// whole wiring.
import { getConnInfo } from "@hono/node-server/conninfo";
import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { clientAddress, mount, securityHeaders, type TesseraEnv } from "@tessera/hono";
import { cookieSession, type SessionEnv } from "@tessera/session/hono";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import { Hono } from "hono";
import { appOrganizations, organizationMigrationsWithProjects } from "./organizations.js";
import type { Settings } from "./settings.js";
import { userWebhookMigrations, userWebhooks } from "./user-webhooks.js";

/**
 * The example's Hono app on its SQLite file, migrated, and the sender of its users' webhooks;
 * `main.ts` serves the one and starts the other on Node.
 */
export async function exampleApp(settings: Settings) {
  const database = openSqliteFile(settings.databasePath);
  await applyMigrations(database, [
    ...accountMigrations,
    ...webhookMigrations,
    ...userWebhookMigrations,
    ...organizationMigrationsWithProjects,
  ]);

  const stores = sqlAccountStores(database);
  const accounts = accountRoutes({
    ...stores,
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

  // Webhooks sent to users: their endpoints at /api/webhook_endpoints and /account/webhooks.
  const outbound = userWebhooks({
    database,
    accounts,
    stores,
    secretKeyBase: settings.secretKeyBase,
    policy: { allowHosts: settings.outboundAllowHosts, requireHttps: settings.production },
  });

  // Organizations: /api/orgs (members, invitations by mail), /invitations/{token}, and the
  // organization's projects at /api/orgs/{slug}/projects.
  const organizations = appOrganizations({
    database,
    accounts,
    stores,
    mailer: settings.mailer,
    appUrl: settings.appUrl,
  });

  const app = new Hono<TesseraEnv & SessionEnv>();
  app.use(securityHeaders());
  app.use(clientAddress({ getConnInfo, trustProxy: settings.trustProxy }));
  // Optional: the routes open the cookie themselves; with it, the app's own pages see the session.
  app.use(cookieSession(accounts.sessions));
  mount(app, [...accounts.routes, ...webhooks, ...outbound.routes, ...organizations.routes]);
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
  // An event of the app's own: sent to the user's endpoints in the same transaction as the
  // app's write (here the event alone), so it exists exactly when the write does.
  app.post("/api/greetings", async (c) => {
    const user = await accounts.currentUser(c.req.raw, { bearer: true });
    if (!user) return c.json({ error: "Sign in first." }, 401);
    const body: unknown = await c.req.json().catch(() => null);
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== "string" || text.length > 200) {
      return c.json({ error: "text must be a string of at most 200 characters." }, 400);
    }
    await database.transaction((transaction) =>
      outbound.webhooks.send(transaction, user.id, "greeting.sent", { text }),
    );
    return c.json({ sent: true }, 202);
  });
  return { app, sender: outbound.sender };
}
