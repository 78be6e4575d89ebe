import { jsonError } from "@tessera/http";
import { type SqlDatabase, SqliteWebhookEventStore } from "@tessera/sqlite";
import {
  createWebhookProcessor,
  githubSignatureVerifier,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
  type WebhookDelivery,
  type WebhookProcessorOptions,
} from "@tessera/webhooks";
import type { AppHono } from "./accounts.js";
import { type AppConfig, ConfigError } from "./config.js";
import { bodyType, recordPaidOrder, recordReceipt } from "./webhook-effects.js";

type Endpoint = Omit<WebhookProcessorOptions, "store" | "verify" | "source"> & {
  readonly verify: (secret: string) => WebhookProcessorOptions["verify"];
};

function header(delivery: WebhookDelivery, name: string): string | null {
  return delivery.headers instanceof Headers ? delivery.headers.get(name) : null;
}

/**
 * Mounts `POST /webhooks/{orders,github,stripe,billing}` (docs/routes.md). An endpoint whose
 * secret is not set answers 503 naming the variable, rather than accepting anything.
 */
export function mountWebhooks(app: AppHono, database: SqlDatabase, config: AppConfig): void {
  const store = new SqliteWebhookEventStore(database);
  const endpoints: Record<keyof AppConfig["webhookSecrets"], Endpoint> = {
    orders: {
      verify: (secret) => signatureHeaderVerifier({ secret }),
      effect: recordPaidOrder(database),
    },
    github: {
      verify: (secret) => githubSignatureVerifier({ secret }),
      // GitHub's payloads carry no top-level id: each delivery is named by this header.
      eventIdHeader: "X-GitHub-Delivery",
      effect: recordReceipt(database, (event) => header(event.delivery, "x-github-event")),
    },
    stripe: {
      verify: (secret) => timestampedSignatureVerifier({ secret, toleranceSeconds: 300 }),
      effect: recordReceipt(database, bodyType),
    },
    billing: {
      verify: (secret) => standardWebhookVerifier({ secret }),
      effect: recordReceipt(database, bodyType),
    },
  };
  for (const [source, endpoint] of Object.entries(endpoints)) {
    const secret = config.webhookSecrets[source as keyof AppConfig["webhookSecrets"]];
    const path = `/webhooks/${source}`;
    const variable = `${source.toUpperCase()}_WEBHOOK_SECRET`;
    if (secret === undefined) {
      app.post(path, () =>
        jsonError(503, `This webhook endpoint is off: set ${variable} to turn it on.`),
      );
      continue;
    }
    let verify: WebhookProcessorOptions["verify"];
    try {
      verify = endpoint.verify(secret);
    } catch (error) {
      throw new ConfigError(`${variable} is not usable: ${(error as Error).message}`);
    }
    const processor = createWebhookProcessor({ ...endpoint, source, store, verify });
    app.post(path, (context) => processor.handle(context.req.raw));
  }
}
