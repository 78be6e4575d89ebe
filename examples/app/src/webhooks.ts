import { jsonError, type Route } from "@tessera/http";
import type { SqlDatabase } from "@tessera/sql";
import {
  githubSignatureVerifier,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
  type WebhookDelivery,
  type WebhookProcessorOptions,
  webhookRoute,
} from "@tessera/webhooks";
import { SqlWebhookEventStore } from "@tessera/webhooks/sql";
import { type AppConfig, ConfigError } from "./config.js";
import { bodyType, recordPaidOrder, recordReceipt } from "./webhook-effects.js";

type Endpoint = Omit<WebhookProcessorOptions, "store" | "verify" | "source"> & {
  readonly verify: (secret: string) => WebhookProcessorOptions["verify"];
};

function header(delivery: WebhookDelivery, name: string): string | null {
  return delivery.headers instanceof Headers ? delivery.headers.get(name) : null;
}

/**
 * `POST /webhooks/{orders,github,stripe,billing}` (docs/routes.md). An endpoint whose secret
 * is not set answers 503 naming the variable, rather than accepting anything.
 */
export function webhookRoutes(database: SqlDatabase, config: AppConfig): Route[] {
  const routes: Route[] = [];
  const store = new SqlWebhookEventStore(database);
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
      const off = `This webhook endpoint is off: set ${variable} to turn it on.`;
      routes.push({ method: "POST", path, handle: async () => jsonError(503, off) });
      continue;
    }
    let verify: WebhookProcessorOptions["verify"];
    try {
      verify = endpoint.verify(secret);
    } catch (error) {
      throw new ConfigError(`${variable} is not usable: ${(error as Error).message}`);
    }
    routes.push(webhookRoute({ ...endpoint, source, store, verify, path }));
  }
  return routes;
}
