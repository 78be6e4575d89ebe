import type { Route } from "@tessera/http";
import { createWebhookProcessor, type WebhookProcessorOptions } from "./webhook-processor.js";

/** Options of {@link webhookRoute}: the processor's, and where it answers. */
export interface WebhookRouteOptions<Payload = unknown> extends WebhookProcessorOptions<Payload> {
  /** Default `/webhooks/<source>`. */
  readonly path?: string | undefined;
}

/**
 * `POST /webhooks/<source>` as a route to mount: it reads the raw body itself (the signature
 * covers the exact bytes), verifies, records the event once and runs the effect. The
 * processor behind it (`createWebhookProcessor`) stays available for bodies already read.
 * With a `payload` schema, the effect receives the schema's typed output.
 *
 * @example
 * ```ts
 * import { toNodeHandler } from "@tessera/node";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 * import { githubSignatureVerifier, webhookRoute } from "@tessera/webhooks";
 * import { SqlWebhookEventStore } from "@tessera/webhooks/sql";
 *
 * const github = webhookRoute({
 *   source: "github", // POST /webhooks/github
 *   verify: githubSignatureVerifier({ secret: process.env.GITHUB_WEBHOOK_SECRET! }),
 *   store: new SqlWebhookEventStore(openSqliteFile("data/app.db")),
 *   eventIdHeader: "X-GitHub-Delivery",
 *   effect: (event) => console.log("delivery", event.id), // must be safe to run twice
 * });
 * const handler = toNodeHandler([github]); // or mount(app, [github]) of @tessera/hono
 * ```
 */
export function webhookRoute<Payload = unknown>(options: WebhookRouteOptions<Payload>): Route {
  const processor = createWebhookProcessor(options);
  return {
    method: "POST",
    path: options.path ?? `/webhooks/${options.source}`,
    handle: (request) => processor.handle(request),
  };
}
