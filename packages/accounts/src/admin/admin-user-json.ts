import { formatTimestamp } from "@tessera/core";
import type { OperatorColumn } from "../profile/operator-columns.js";
import { isBanned, type User, type UserRole, userJson } from "../users/user.js";

/** A user as the admin routes show one: the public form, with the role, confirmation and ban. */
export interface AdminUserJson {
  /** The public form's fields (`userJson`): id, email, timestamps, public operator columns. */
  readonly [field: string]: unknown;
  readonly role: UserRole;
  readonly confirmed_at: string | null;
  readonly ban: {
    readonly reason: string;
    readonly at: string;
    readonly until: string | null;
    /** Whether it is in force now (a ban with an end in the past is kept, not active). */
    readonly active: boolean;
  } | null;
}

/** `user` in the admin routes' words, its ban said active or not at `now`. */
export function adminUserJson(
  user: User,
  operatorColumns: readonly OperatorColumn[],
  now: number,
): AdminUserJson {
  const { ban } = user;
  return {
    ...userJson(user, operatorColumns),
    role: user.role ?? "user",
    confirmed_at: user.confirmedAt === null ? null : formatTimestamp(user.confirmedAt),
    ban:
      ban == null
        ? null
        : {
            reason: ban.reason,
            at: formatTimestamp(ban.at),
            until: ban.until === null ? null : formatTimestamp(ban.until),
            active: isBanned(user, now),
          },
  };
}
