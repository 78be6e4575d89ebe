/**
 * The account events the audit trail records, each once, when the change it names is made:
 * sign-ups, sign-ins and failed ones, sign-outs, credential changes, second factors, passkeys,
 * API keys, ended devices, throttling, an operator's bans and impersonations, and deletion.
 */
export const ACCOUNT_AUDIT_EVENT_TYPES = [
  "user.signed_up",
  "user.signed_in",
  "user.sign_in_failed",
  "user.signed_out",
  "user.password_changed",
  "user.password_reset",
  "user.email_change_requested",
  "user.email_changed",
  "user.mfa_enabled",
  "user.mfa_disabled",
  "user.backup_codes_regenerated",
  "user.passkey_added",
  "user.passkey_removed",
  "user.api_key_created",
  "user.api_key_deleted",
  "user.session_revoked",
  "user.throttled",
  "user.banned",
  "user.unbanned",
  "user.role_changed",
  "user.impersonation_started",
  "user.impersonation_stopped",
  "user.deleted",
] as const;

/** One of {@link ACCOUNT_AUDIT_EVENT_TYPES}. */
export type AccountAuditEventType = (typeof ACCOUNT_AUDIT_EVENT_TYPES)[number];

/** A value an event's `details` may hold: never a secret (see {@link auditDetails}). */
export type AuditDetail = string | number | boolean | null | readonly string[];

/** What an event records, as the code that made the change gives it. */
export interface AuditEntry {
  /** `user.signed_in`, or another package's or the app's own (`organization.member_added`). */
  readonly type: string;
  /** The user the event is about (the subject); null for none (an address with no account). */
  readonly userId: number | null;
  /** Who made the change when it was not the subject (an admin, an organization's owner). */
  readonly actorId: number | null;
  /** The client's address, as the routes read it (`TRUST_PROXY` applied). */
  readonly ip: string | null;
  /** The client's `User-Agent`, cut to {@link MAXIMUM_USER_AGENT_LENGTH} characters. */
  readonly userAgent: string | null;
  readonly details: Readonly<Record<string, AuditDetail>>;
}

/** An event as the trail keeps it: its id (ascending in time) and when it was recorded. */
export interface AuditEvent extends AuditEntry {
  readonly id: number;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** The longest `User-Agent` kept; a longer one is cut there. */
export const MAXIMUM_USER_AGENT_LENGTH = 256;

/** Detail names that would hold a secret: refused, so none reaches the trail by mistake. */
const SECRET_DETAIL = /password|secret|token|digest|otp|^code$|backup_code|private|cookie/i;

/**
 * `details` checked for what the trail must never hold: a name that reads as a secret
 * (`password`, `token`, `code`, `secret`, `digest` …) throws, since the caller is the code that
 * made the change, and a trail that kept one would leak it to every reader of the log.
 */
export function auditDetails(
  details: Readonly<Record<string, AuditDetail>>,
): Readonly<Record<string, AuditDetail>> {
  for (const name of Object.keys(details)) {
    if (SECRET_DETAIL.test(name)) {
      throw new TypeError(`audit details must not hold secrets: "${name}" was given`);
    }
  }
  return details;
}
