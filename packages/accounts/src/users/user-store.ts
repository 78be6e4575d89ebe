import type { Result } from "@tessera/core";
import type { OperatorColumnValue } from "../profile/operator-columns.js";
import type { User, UserRole } from "./user.js";

/** What a new user is created from; the email is already normalized. */
export interface NewUser {
  readonly email: string;
  readonly passwordDigest: string;
  /** Epoch milliseconds, or null for an address not confirmed yet. */
  readonly confirmedAt?: number | null | undefined;
  readonly columns?: Readonly<Record<string, OperatorColumnValue>> | undefined;
}

/**
 * Where users live. Emails are stored normalized; uniqueness is the store's job and must hold
 * under concurrency (a unique index), so `create` reports a taken email as a failure.
 * Deleting a user must delete what it owns (tokens, keys, sessions, identities).
 */
export interface UserStore {
  create(user: NewUser, now: number): Promise<Result<User, "email-taken">>;
  findById(id: number): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Deletes the user; false when there was none. */
  delete(id: number): Promise<boolean>;
  /**
   * Writes a new password digest (empty: no password). With `endSignIns`, in the same write,
   * `credentialsChangedAt` becomes `now`: every token and session signed in before it stops
   * working.
   */
  updatePasswordDigest(
    id: number,
    passwordDigest: string,
    now: number,
    options?: PasswordUpdateOptions,
  ): Promise<void>;
  /** Sets `confirmed_at` if it is not set yet. */
  confirm(id: number, now: number): Promise<void>;
  /**
   * Gives the user a new (normalized) email address, confirmed at `now`, in one write; the
   * user as changed, `email-taken` when another user has it (the unique index decides, also
   * under concurrency), `not-found` when the user is gone.
   */
  changeEmail(
    id: number,
    email: string,
    now: number,
  ): Promise<Result<User, "email-taken" | "not-found">>;
  /** Writes operator column values (only the named ones); the user as changed, or undefined. */
  updateColumns(
    id: number,
    columns: Readonly<Record<string, OperatorColumnValue>>,
    now: number,
  ): Promise<User | undefined>;
}

/**
 * What operators do to users (`/api/admin`): change a platform role, ban and lift a ban, find
 * users by email or name. `SqlUserStore`, `MemoryUserStore` and `CachedUserStore` have it.
 */
export interface UserAdministration {
  /** Sets the user's platform role; false when there is no such user. */
  setRole(id: number, role: UserRole, now: number): Promise<boolean>;
  /**
   * Bans the user (replacing a ban they had) and, in the same write, sets
   * `credentialsChangedAt` to `now`: every token and session they hold stops working.
   * The user as changed, or undefined when there is none.
   */
  ban(
    id: number,
    ban: { readonly reason: string; readonly until: number | null },
    now: number,
  ): Promise<User | undefined>;
  /**
   * Sets `credentialsChangedAt` to `now`, and nothing else: every token and session the user
   * holds stops working (API keys stay). False when there is no such user.
   */
  endSignIns(id: number, now: number): Promise<boolean>;
  /**
   * Sets the operator's `impersonationsEndedAt` to `now`: every token acting for a user that
   * they were given until then stops working. False when there is no such user.
   */
  endImpersonations(id: number, now: number): Promise<boolean>;
  /** Lifts the user's ban; the user as changed, or undefined when there is none. */
  unban(id: number, now: number): Promise<User | undefined>;
  /**
   * Users whose email (or a `searchColumns` column) contains `query` (any case; all users
   * without one), newest first, with keyset paging by id.
   */
  searchUsers(search: UserSearch): Promise<User[]>;
}

/** Whether `store` administers users too (the SQL, memory and cached stores do). */
export function isUserAdministration(
  store: UserStore | (UserStore & UserAdministration),
): store is UserStore & UserAdministration {
  return (
    typeof (store as Partial<UserAdministration>).ban === "function" &&
    typeof (store as Partial<UserAdministration>).searchUsers === "function"
  );
}

/** A search of {@link UserAdministration.searchUsers}. */
export interface UserSearch {
  readonly query?: string | undefined;
  /** Only users whose id is below this one. */
  readonly after?: number | undefined;
  readonly offset?: number | undefined;
  readonly limit: number;
}

/** Options of {@link UserStore.updatePasswordDigest}. */
export interface PasswordUpdateOptions {
  /** Also sets `credentialsChangedAt` to `now`, signing out what signed in before. */
  readonly endSignIns?: boolean | undefined;
}
