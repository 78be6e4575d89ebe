import { formatTimestamp } from "@tessera/core";
import type { OperatorColumn, OperatorColumnValue } from "../profile/operator-columns.js";

/** A stored user. `passwordDigest` is empty for users who only sign in through a provider. */
export interface User {
  readonly id: number;
  readonly email: string;
  readonly passwordDigest: string;
  /** When the email address was confirmed (epoch ms), or null. */
  readonly confirmedAt: number | null;
  /**
   * When the user's credentials last changed in a way that ends earlier sign-ins (a password
   * change that signed out the other sessions), epoch ms, or null: tokens and sessions signed
   * in before it are refused.
   */
  readonly credentialsChangedAt: number | null;
  /** Epoch milliseconds; a SQL store keeps whole seconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Values of the operator columns, by column name. */
  readonly columns: Readonly<Record<string, OperatorColumnValue>>;
  /** The platform role: `admin` may use the admin routes; absent is `user`. */
  readonly role?: UserRole | undefined;
  /** The user's ban, while one is recorded (it may have ended: see {@link isBanned}). */
  readonly ban?: UserBan | null | undefined;
  /**
   * For an operator: when they last stopped impersonating (epoch ms), or null. Every token
   * acting for a user that they were given before then is refused.
   */
  readonly impersonationsEndedAt?: number | null | undefined;
}

/** A platform role, apart from any organization's roles. */
export type UserRole = "user" | "admin";

/** An operator's ban of a user: why, when, and until when (null: until it is lifted). */
export interface UserBan {
  readonly reason: string;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Epoch milliseconds, or null for a ban that lasts until lifted. */
  readonly until: number | null;
}

/** Whether `user` is banned at `now`: a ban without an end, or one ending after `now`. */
export function isBanned(user: User, now: number): boolean {
  const ban = user.ban;
  return ban != null && (ban.until === null || ban.until > now);
}

/** The JSON form of a user: never the password digest, never a secret operator column. */
export type UserJson = {
  id: number;
  email: string;
  created_at: string;
  updated_at: string;
} & Record<string, OperatorColumnValue>;

/** Builds the JSON form of a user: `id`, `email`, timestamps, public operator columns. */
export function userJson(user: User, operatorColumns: readonly OperatorColumn[]): UserJson {
  const json: UserJson = {
    id: user.id,
    email: user.email,
    created_at: formatTimestamp(user.createdAt),
    updated_at: formatTimestamp(user.updatedAt),
  };
  for (const column of operatorColumns) {
    if (!column.secret) json[column.name] = user.columns[column.name] ?? null;
  }
  return json;
}

/** True once the email address is confirmed. */
export function isConfirmed(user: User): boolean {
  return user.confirmedAt !== null;
}
