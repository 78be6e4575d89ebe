import type { ApiKeyStore } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import type { TrackedSessionStore } from "@tessera/session";
import type { AuditEvent } from "../audit/audit-events.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { FindFactorSummary } from "../second-factor/factor-summary.js";
import type { User } from "../users/user.js";
import { isAdmin } from "./admin-access.js";

/** What an operator sees of a user besides the user row. */
export interface AdminUserFacts {
  readonly admin: boolean;
  readonly apiKeys: number;
  /** Null without the device list. */
  readonly devices: number | null;
  /** Null without second factors. */
  readonly mfa: { readonly totp: boolean; readonly passkeys: number } | null;
  /** The latest `user.signed_in` event, or null (none, or no audit trail). */
  readonly lastSignIn: AuditEvent | null;
  /** The user's latest 20 events, newest first (empty without an audit trail). */
  readonly recent: readonly AuditEvent[];
}

/** Where {@link loadUserFacts} reads: each source is optional but the keys. */
export interface UserFactSources {
  readonly apiKeys: ApiKeyStore;
  readonly adminEmails?: readonly string[] | undefined;
  readonly auditLog?: AuditLog | undefined;
  readonly trackedSessions?: TrackedSessionStore | undefined;
  readonly findFactorSummary?: FindFactorSummary | undefined;
  readonly clock: Clock;
}

/** The facts of `user` for the admin routes and pages, read in parallel. */
export async function loadUserFacts(sources: UserFactSources, user: User): Promise<AdminUserFacts> {
  const [summary, devices, keys, lastSignIn, recent] = await Promise.all([
    sources.findFactorSummary?.(user.id),
    sources.trackedSessions?.listForUser(user.id, sources.clock()),
    sources.apiKeys.listForUser(user.id),
    sources.auditLog?.list({ userId: user.id, type: "user.signed_in", limit: 1 }),
    sources.auditLog?.list({ userId: user.id, limit: 20 }),
  ]);
  return {
    admin: isAdmin(user, sources.adminEmails),
    apiKeys: keys.length,
    devices: devices?.length ?? null,
    mfa: summary ? { totp: summary.totp, passkeys: summary.passkeys } : null,
    lastSignIn: lastSignIn?.[0] ?? null,
    recent: recent ?? [],
  };
}
