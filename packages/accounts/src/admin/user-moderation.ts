import {
  BLANK,
  type Clock,
  formatTimestamp,
  INVALID,
  parseTimestamp,
  tooLongMessage,
  unstorableText,
} from "@tessera/core";
import { endOtherTrackedSessions, type TrackedSessionStore } from "@tessera/session";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import type { FieldErrors } from "../messages.js";
import type { User } from "../users/user.js";
import type { UserAdministration } from "../users/user-store.js";
import { isAdmin } from "./admin-access.js";

/** The longest ban reason kept, in characters. */
export const MAXIMUM_BAN_REASON_LENGTH = 500;

/** What an operator's changes to a user are made with: the store, the trail, the devices. */
export interface ModerationParts {
  readonly users: UserAdministration;
  readonly events: AccountEvents;
  readonly clock: Clock;
  readonly adminEmails?: readonly string[] | undefined;
  /** The device list: a ban and a revocation delete the user's devices too. */
  readonly trackedSessions?: TrackedSessionStore | undefined;
}

/** A ban as an operator asks for it, checked: its reason and its end (null: until lifted). */
export interface BanRequest {
  readonly reason: string;
  readonly until: number | null;
}

/**
 * A ban's `reason` (1–500 characters once trimmed) and `until` (`YYYY-MM-DD HH:MM:SS` in UTC,
 * as the API writes times, in the future; null, absent or empty: until lifted), or the
 * messages of each field that fails.
 */
export function checkBanRequest(
  reason: string,
  until: string | null | undefined,
  now: number,
):
  | { readonly ok: true; readonly value: BanRequest }
  | { readonly ok: false; readonly fields: FieldErrors } {
  const fields: FieldErrors = {};
  const trimmed = reason.trim();
  if (trimmed === "") fields.reason = [BLANK];
  else if ([...trimmed].length > MAXIMUM_BAN_REASON_LENGTH) {
    fields.reason = [tooLongMessage(MAXIMUM_BAN_REASON_LENGTH)];
  } else if (unstorableText(trimmed)) fields.reason = [INVALID];
  const end = until == null || until.trim() === "" ? null : parseTimestamp(until.trim());
  if (end !== null && Number.isNaN(end)) fields.until = [INVALID];
  else if (end !== null && end <= now) {
    fields.until = [accountMessages.english["accounts.admin.until_past"]];
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, value: { reason: trimmed, until: end } };
}

/**
 * Bans `target` for `operator`: refused for an operator (`not-bannable`); otherwise the ban and
 * the end of the user's sign-ins in one write, their devices deleted, `user.banned` recorded
 * with the operator as actor. The user as banned, or `gone` when they were deleted meanwhile.
 */
export async function banUser(
  parts: ModerationParts,
  operator: User,
  target: User,
  ban: BanRequest,
  at: HookRequest,
): Promise<User | "not-bannable" | "gone"> {
  if (isAdmin(target, parts.adminEmails)) return "not-bannable";
  const banned = await parts.users.ban(target.id, ban, parts.clock());
  if (!banned) return "gone";
  await endDevices(parts, target.id);
  await parts.events.audited("user.banned", target.id, at, {
    actorId: operator.id,
    details: {
      reason: ban.reason,
      until: ban.until === null ? null : formatTimestamp(ban.until),
    },
  });
  return banned;
}

/** Lifts `target`'s ban for `operator`, recorded as `user.unbanned`; undefined when gone. */
export async function unbanUser(
  parts: ModerationParts,
  operator: User,
  target: User,
  at: HookRequest,
): Promise<User | undefined> {
  const unbanned = await parts.users.unban(target.id, parts.clock());
  if (unbanned)
    await parts.events.audited("user.unbanned", target.id, at, { actorId: operator.id });
  return unbanned;
}

/**
 * Ends every token and session of `target` (API keys stay) and deletes their devices, for
 * `operator`, recorded as `user.session_revoked`; false when the user is gone.
 */
export async function endUserSignIns(
  parts: ModerationParts,
  operator: User,
  target: User,
  at: HookRequest,
): Promise<boolean> {
  if (!(await parts.users.endSignIns(target.id, parts.clock()))) return false;
  await endDevices(parts, target.id);
  await parts.events.audited("user.session_revoked", target.id, at, {
    actorId: operator.id,
    details: { everywhere: true },
  });
  return true;
}

async function endDevices(parts: ModerationParts, userId: number): Promise<void> {
  if (parts.trackedSessions) await endOtherTrackedSessions(parts.trackedSessions, userId);
}
