import type { User } from "@tessera/accounts";
import { type Clock, ENGLISH } from "@tessera/core";
import type { Mailer } from "@tessera/mail";
import {
  OUTBOUND_TIMEOUT_MS,
  type OutboundFetch,
  type OutboundPolicy,
  OutboundWebhooks,
  outboundSecretKeys,
  type ResolveHost,
  type WebhookEndpoint,
  webhookSender,
} from "@tessera/outbound";
import { outboundMessages } from "@tessera/outbound/routes";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import type { Outbox, OutboxRunner } from "@tessera/outbox";
import type { SqlDatabase } from "@tessera/sql";
import type { AppConfig } from "./config.js";

/** What the app's outbound webhooks are built from. */
export interface OutboundWiring {
  readonly database: SqlDatabase;
  /** The app's outbox: deliveries wait there beside the mails (queue `webhook`). */
  readonly outbox: Outbox<SqlDatabase>;
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  /** Resolves a registered URL's host (Node's DNS); without it only IP literals are checked. */
  readonly resolveHost?: ResolveHost;
  readonly clock?: Clock;
  /**
   * Keep each user's endpoints in memory (`SqlOutboundStore`'s `cacheSubscriptions`, default
   * false): for a SQLite database that is one connection (the Node app's file, better-sqlite3),
   * never D1.
   */
  readonly cacheSubscriptions?: boolean;
}

/** The SSRF rules of users' endpoints: `OUTBOUND_ALLOW_HOSTS`, and https only in production. */
export function outboundPolicy(config: AppConfig): OutboundPolicy {
  return { allowHosts: config.outboundAllowHosts, requireHttps: config.production };
}

/** The keys endpoint secrets are sealed with: derived from `SECRET_KEY_BASE` (and its previous). */
function secretKeysOf(wiring: Pick<OutboundWiring, "config" | "secretKeyBase">) {
  const previous = wiring.config.secretKeyBasePrevious;
  return outboundSecretKeys({
    current: wiring.secretKeyBase,
    ...(previous === undefined ? {} : { previous }),
  });
}

/**
 * The users' webhook endpoints and the events sent to them, on the app's database. With
 * `cacheSubscriptions` each user's endpoints are kept in memory while nothing changes them: a
 * note's write then reads none, and one whose event goes nowhere opens no transaction.
 */
export function appOutboundWebhooks(wiring: OutboundWiring): OutboundWebhooks<SqlDatabase> {
  const cacheSubscriptions = wiring.cacheSubscriptions ?? false;
  return new OutboundWebhooks({
    store: new SqlOutboundStore(wiring.database, { cacheSubscriptions }),
    outbox: wiring.outbox,
    writer: wiring.database,
    secretKeys: secretKeysOf(wiring),
    policy: outboundPolicy(wiring.config),
    maximumEndpointsPerOwner: wiring.config.outboundMaxEndpoints,
    ...(wiring.resolveHost ? { resolveHost: wiring.resolveHost } : {}),
    ...(wiring.clock ? { clock: wiring.clock } : {}),
  });
}

/**
 * How long a sender holds a delivery it claimed: the request's timeout and a margin. A process
 * killed mid-delivery leaves it to another sender (or itself, restarted) this much later.
 */
export const WEBHOOK_LEASE_MS = OUTBOUND_TIMEOUT_MS + 5_000;

/**
 * One delivery's deadline: past the request's own timeout, so an attempt ends with its outcome
 * logged, and within the lease.
 */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = OUTBOUND_TIMEOUT_MS + 2_000;

/** What the sender of one process is built from, beyond the outbound wiring. */
export interface WebhookSenderWiring extends OutboundWiring {
  /** The guarded request of the runtime: `nodeGuardedFetch(outboundPolicy(config))` on Node. */
  readonly fetch: OutboundFetch;
  /** The app's mailer (the outbox): tells an owner their endpoint was disabled. */
  readonly mailer: Mailer | undefined;
  readonly findUser: (id: number) => Promise<User | undefined>;
}

/**
 * The process's webhook sender: delivers the outbox's `webhook` queue on
 * `OUTBOUND_RETRY_SCHEDULE`, and mails an endpoint's owner when it is disabled for failing 5
 * days. Start it with the process and stop it before the database closes (or drain it).
 */
export function appWebhookSender(wiring: WebhookSenderWiring): OutboxRunner {
  return webhookSender({
    store: new SqlOutboundStore(wiring.database),
    outbox: wiring.outbox,
    writer: wiring.database,
    secretKeys: secretKeysOf(wiring),
    fetch: wiring.fetch,
    schedule: wiring.config.outboundRetrySchedule,
    leaseMs: WEBHOOK_LEASE_MS,
    attemptTimeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
    ...(wiring.clock ? { clock: wiring.clock } : {}),
    onError: (error) => console.error(`The webhook sender failed: ${(error as Error).message}`),
    onEndpointDisabled: (endpoint) => mailDisabledEndpoint(wiring, endpoint),
  });
}

/**
 * Mails the owner of an endpoint just disabled. The app keeps no language per user, so the mail
 * is in English (the catalog's French is there for when it does).
 */
async function mailDisabledEndpoint(
  wiring: WebhookSenderWiring,
  endpoint: WebhookEndpoint,
): Promise<void> {
  const owner = await wiring.findUser(endpoint.ownerId);
  if (!owner) return;
  if (!wiring.mailer) {
    console.error(`Webhook endpoint ${endpoint.id} was disabled; no mailer to tell its owner.`);
    return;
  }
  const page = `${wiring.config.appUrl ?? ""}/account/webhooks`;
  await wiring.mailer.send({
    to: owner.email,
    subject: outboundMessages.text(ENGLISH, "outbound.disabled_mail_subject"),
    text: outboundMessages.text(ENGLISH, "outbound.disabled_mail_text", {
      url: endpoint.url,
      page,
    }),
  });
}
