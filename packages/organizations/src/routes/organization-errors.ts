import type { CommonErrorCode, Locale, MessageParams } from "@tessera/core";
import { jsonError } from "@tessera/http";
import { type OrganizationMessageId, organizationMessages } from "./organization-messages.js";

/** One refusal of an organization route: its `error.code`, its status and its message, together. */
export interface OrganizationErrorEntry {
  readonly code: string;
  readonly status: number;
  readonly message: OrganizationMessageId;
}

/**
 * The refusals of the organization routes that carry more than their status's word. A code
 * may stand in two entries (`invitation_email_mismatch` for another address and for an
 * unconfirmed one): the message tells them apart, the client needs not.
 */
export const organizationErrors = Object.freeze({
  /** A member whose role lacks the route's permission; the message names it. */
  permissionRequired: {
    code: "forbidden",
    status: 403,
    message: "organizations.permission_required",
  },
  /** A role given, or a member's role changed or removed, above what the actor's role may do. */
  roleNotGrantable: {
    code: "role_not_grantable",
    status: 403,
    message: "organizations.role_not_grantable",
  },
  /** The change would leave the organization without an owner. */
  lastOwner: { code: "last_owner", status: 409, message: "organizations.last_owner" },
  /** An invitation token that is unknown, used, revoked or expired: one answer for all. */
  invitationNotFound: {
    code: "not_found",
    status: 404,
    message: "organizations.invitation_not_found",
  },
  /** The signed-in user's address is not the invited one. */
  invitationEmailMismatch: {
    code: "invitation_email_mismatch",
    status: 403,
    message: "organizations.invitation_email_mismatch",
  },
  /** The signed-in user has not confirmed their address, so it proves nothing. */
  invitationEmailUnconfirmed: {
    code: "invitation_email_mismatch",
    status: 403,
    message: "organizations.invitation_email_unconfirmed",
  },
  /** The invitation mail could not be handed over: the invitation was revoked again. */
  invitationNotSent: {
    code: "unavailable",
    status: 503,
    message: "organizations.invitation_not_sent",
  },
} as const satisfies Record<string, OrganizationErrorEntry>);

/**
 * The `error.code`s the organization routes answer with: the common ones (`not_found`,
 * `forbidden`, `validation_failed`, `rate_limited`, …) and `role_not_grantable`, `last_owner`,
 * `invitation_email_mismatch`.
 */
export type OrganizationErrorCode =
  | CommonErrorCode
  | (typeof organizationErrors)[keyof typeof organizationErrors]["code"];

/** The answer refusing a request with `entry`, its message in `locale` with `params` filled in. */
export function organizationErrorAnswer(
  entry: OrganizationErrorEntry,
  locale: Locale | undefined,
  params?: MessageParams,
): Response {
  const message = organizationMessages.text(locale, entry.message, params);
  return jsonError(entry.status, message, { code: entry.code, locale });
}
