// Send webhooks to your users: their endpoints' JSON API and page, and the events of the app's
// own route, delivered by a sender in this process.
import type { AccountRoutes } from "@tessera/accounts";
import type { SqlAccountStores } from "@tessera/accounts/sql";
import { bearerAuthentication } from "@tessera/bearer";
import { plainLayout } from "@tessera/http";
import {
  type OutboundPolicy,
  OutboundWebhooks,
  outboundSecretKeys,
  webhookSender,
} from "@tessera/outbound";
import { nodeGuardedFetch, nodeResolveHost } from "@tessera/outbound/node";
import {
  type EventTypeDescription,
  outboundPages,
  outboundRoutes,
  userEndpointOwner,
  webhookEventTypesRoute,
} from "@tessera/outbound/routes";
import { outboundMigrations, SqlOutboundStore } from "@tessera/outbound/sql";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { createRateLimiter } from "@tessera/ratelimit";
import { sessionAuthentication } from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";

/** The tables of outbound webhooks: apply them with the accounts' migrations. */
export const userWebhookMigrations = [...outboxMigrations, ...outboundMigrations];

/** The one event this example sends, with the JSON Schema of its `data`. */
export const EVENT_TYPES: readonly EventTypeDescription[] = [
  {
    name: "greeting.sent",
    description: "The user sent a greeting.",
    schema: {
      type: "object",
      properties: { text: { type: "string", examples: ["Hello"] } },
      required: ["text"],
    },
  },
];

/** What the webhooks are built from: the app's database, accounts and secret. */
export interface UserWebhookWiring {
  readonly database: SqlDatabase;
  readonly accounts: AccountRoutes;
  readonly stores: SqlAccountStores;
  readonly secretKeyBase: string;
  /** Where endpoints may point: `{ allowHosts: ["127.0.0.1"] }` lets a local receiver in. */
  readonly policy?: OutboundPolicy;
}

/** Users' webhook endpoints (JSON and a page), the events' sender, and `send` for your routes. */
export function userWebhooks(wiring: UserWebhookWiring) {
  const { database, accounts, stores } = wiring;
  const policy = wiring.policy ?? { requireHttps: true };
  const outbox = new SqlOutbox(database);
  const store = new SqlOutboundStore(database);
  const secretKeys = outboundSecretKeys({ current: wiring.secretKeyBase });
  const webhooks = new OutboundWebhooks({
    store,
    outbox,
    writer: database,
    secretKeys,
    policy,
    resolveHost: nodeResolveHost,
  });
  const rateLimiter = createRateLimiter({ store: stores.rateLimits });
  const routes = [
    webhookEventTypesRoute(EVENT_TYPES),
    ...outboundRoutes({
      webhooks,
      owner: userEndpointOwner(bearerAuthentication(accounts.bearer)),
      eventTypes: EVENT_TYPES,
      rateLimiter,
    }),
    ...outboundPages({
      webhooks,
      owner: userEndpointOwner(sessionAuthentication((id) => stores.users.findById(id))),
      eventTypes: EVENT_TYPES,
      layout: plainLayout,
      replayRateLimiter: rateLimiter,
      sessions: accounts.sessions,
    }),
  ];
  const sender = webhookSender({
    store,
    outbox,
    writer: database,
    secretKeys,
    fetch: nodeGuardedFetch(policy),
  });
  return { webhooks, routes, sender };
}
