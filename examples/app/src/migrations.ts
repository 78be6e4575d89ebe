import {
  auditEventsMigration,
  authTokensMigration,
  emailChangesMigration,
  emailCodesMigration,
  mfaChallengesFirstFactorMigration,
  passkeysMigration,
  secondFactorsMigration,
  usersAdministrationMigration,
  usersCredentialsChangedAtMigration,
  usersImpersonationsMigration,
  usersMigration,
} from "@tessera/accounts/sql";
import {
  apiKeysMigration,
  refreshTokensMigration,
  signingKeysMigration,
} from "@tessera/bearer/sql";
import { jobTableMigration } from "@tessera/jobs/sql";
import { identitiesMigration } from "@tessera/oauth/sql";
import { organizationKeysMigration, organizationsMigration } from "@tessera/organizations/sql";
import {
  outboundEndpointOptionsMigration,
  outboundMessagesRetentionMigration,
  outboundWebhooksMigration,
} from "@tessera/outbound/sql";
import { outboxMigrations } from "@tessera/outbox/sql";
import {
  failureStreaksMigration,
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
} from "@tessera/ratelimit/sql";
import {
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import type { Migration } from "@tessera/sql";
import { webhookEventsMigration, webhookEventsRetentionMigration } from "@tessera/webhooks/sql";
import { recordMigrations } from "./records.js";
import { renderJob } from "./render-jobs.js";
import { webhookEffectsMigration } from "./webhook-effects.js";

/** The example app's operator column on `users`: the optional `name` of `nameColumn`. */
const usersNameMigration: Migration = {
  id: "0100_app_users_name",
  sql: "ALTER TABLE users ADD COLUMN name TEXT",
};

/**
 * Every migration of the example app, applied at start: the packages' tables first, then the
 * app's own changes. Ids sort in the order they must run.
 */
export const appMigrations: readonly Migration[] = [
  rateLimitCountersMigration,
  rateLimitWindowIndexMigration,
  usersMigration,
  apiKeysMigration,
  authTokensMigration,
  webhookEventsMigration,
  jobTableMigration(renderJob),
  userSessionsMigration,
  userSessionsExpiryIndexMigration,
  identitiesMigration,
  webhookEventsRetentionMigration,
  ...outboxMigrations,
  secondFactorsMigration,
  passkeysMigration,
  userSessionsFactorsMigration,
  outboundWebhooksMigration,
  emailCodesMigration,
  outboundMessagesRetentionMigration,
  mfaChallengesFirstFactorMigration,
  usersCredentialsChangedAtMigration,
  emailChangesMigration,
  outboundEndpointOptionsMigration,
  organizationsMigration,
  failureStreaksMigration,
  auditEventsMigration,
  signingKeysMigration,
  usersAdministrationMigration,
  usersImpersonationsMigration,
  refreshTokensMigration,
  usersNameMigration,
  webhookEffectsMigration,
  organizationKeysMigration,
  ...recordMigrations,
];
