import { accountRoutes } from "@tessera/accounts";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { clientIp, jsonError, type Route, routeRequests } from "@tessera/http";
import { LogMailer } from "@tessera/mail";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import {
  githubSignatureVerifier,
  timestampedSignatureVerifier,
  webhookRoute,
} from "@tessera/webhooks";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";

/** The app's database: one file, its tables created once per process before the first answer. */
const database = openSqliteFile(process.env.DATABASE_PATH ?? "data/nextjs.db");
const migrated = applyMigrations(database, [...accountMigrations, ...webhookMigrations]);
const events = new SqlWebhookEventStore(database);

const accounts = accountRoutes({
  ...sqlAccountStores(database),
  secretKeyBase: process.env.SECRET_KEY_BASE ?? "",
  mailer: new LogMailer(),
  appUrl: process.env.APP_URL,
});

/** A webhook endpoint for each secret that is set; the effect is where your own work goes. */
const webhooks: Route[] = [
  ...(process.env.GITHUB_WEBHOOK_SECRET
    ? [
        webhookRoute({
          source: "github",
          verify: githubSignatureVerifier({ secret: process.env.GITHUB_WEBHOOK_SECRET }),
          eventIdHeader: "X-GitHub-Delivery",
          store: events,
          effect: (event) => console.log(`GitHub delivery ${event.id}`),
        }),
      ]
    : []),
  ...(process.env.STRIPE_WEBHOOK_SECRET
    ? [
        webhookRoute({
          source: "stripe",
          verify: timestampedSignatureVerifier({
            secret: process.env.STRIPE_WEBHOOK_SECRET,
            toleranceSeconds: 300,
          }),
          store: events,
          effect: (event) => console.log(`Stripe event ${event.id}`),
        }),
      ]
    : []),
];

const route = routeRequests([...accounts.routes, ...webhooks]);

/**
 * Answers one request of the catch-all route handler. Next.js gives no socket address: behind
 * a hosting proxy, the client is the last `X-Forwarded-For` entry (`trustProxy: 1`).
 */
export async function answerRequest(request: Request): Promise<Response> {
  await migrated;
  const clientAddress =
    clientIp({
      socketAddress: undefined,
      forwardedFor: request.headers.get("x-forwarded-for"),
      trustProxy: 1,
    }) ?? "unknown";
  return (await route(request, { clientAddress })) ?? jsonError(404, "Not found");
}
