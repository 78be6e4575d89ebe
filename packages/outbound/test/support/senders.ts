import type { Clock } from "@tessera/core";
import {
  OutboundWebhooks,
  outboundSecretKeys,
  type WebhookEndpoint,
  type WebhookSenderOptions,
  webhookSender,
} from "@tessera/outbound";
import { nodeGuardedFetch } from "@tessera/outbound/node";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { SqlOutbox } from "@tessera/outbox/sql";
import type { SqlDatabase } from "@tessera/sql";

/** The keys every test seals endpoint secrets with. */
export const secretKeys = outboundSecretKeys({
  current: "a-test-secret-key-base-of-at-least-32-characters",
});

/** The policy of the tests: the receivers listen on 127.0.0.1. */
export const allowLocal = { allowHosts: ["127.0.0.1"] };

/**
 * Outbound webhooks on `database` with a clock the test moves (starting at the real time, so
 * the reference libraries' timestamp check holds), and a sender to make.
 */
export function webhooksOn(database: SqlDatabase, time = { now: Date.now() }) {
  const clock: Clock = () => time.now;
  const store = new SqlOutboundStore(database);
  const outbox = new SqlOutbox(database, { clock });
  const webhooks = new OutboundWebhooks({
    store,
    outbox,
    writer: database,
    secretKeys,
    policy: allowLocal,
    clock,
  });
  const disabled: WebhookEndpoint[] = [];
  const sender = (options: Partial<Omit<WebhookSenderOptions<SqlDatabase>, "writer">> = {}) =>
    webhookSender({
      store,
      outbox,
      writer: database,
      secretKeys,
      fetch: nodeGuardedFetch({ ...allowLocal, timeoutMs: 2000 }),
      schedule: { delaysMs: [1000, 1000, 1000] },
      clock,
      onEndpointDisabled: (endpoint) => {
        disabled.push(endpoint);
      },
      ...options,
    });
  const endpointAt = async (ownerId: number, url: string, events?: string[]) => {
    const created = await webhooks.createEndpoint(ownerId, { url, ...(events ? { events } : {}) });
    if (!created.ok) throw new Error(JSON.stringify(created));
    return created.value;
  };
  return { time, clock, store, outbox, webhooks, sender, disabled, endpointAt };
}
