import type { Route } from "@tessera/http";
import { createWebhookProcessor, type WebhookProcessorOptions } from "./webhook-processor.js";

/** Options of {@link webhookRoute}: the processor's, and where it answers. */
export interface WebhookRouteOptions<Payload = unknown> extends WebhookProcessorOptions<Payload> {
  /** Default `/webhooks/<source>`. */
  readonly path?: string;
}

/**
 * `POST /webhooks/<source>` as a route to mount: it reads the raw body itself (the signature
 * covers the exact bytes), verifies, records the event once and runs the effect. The
 * processor behind it (`createWebhookProcessor`) stays available for bodies already read.
 * With a `payload` schema, the effect receives the schema's typed output.
 */
export function webhookRoute<Payload = unknown>(options: WebhookRouteOptions<Payload>): Route {
  const processor = createWebhookProcessor(options);
  return {
    method: "POST",
    path: options.path ?? `/webhooks/${options.source}`,
    handle: (request) => processor.handle(request),
  };
}
