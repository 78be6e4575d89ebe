import type { Result } from "@tessera/core";
import type { OperatorColumnValue } from "../profile/operator-columns.js";
import type { User } from "./user.js";

/** What a new user is created from; the email is already normalized. */
export interface NewUser {
  readonly email: string;
  readonly passwordDigest: string;
  /** Epoch milliseconds, or null for an address not confirmed yet. */
  readonly confirmedAt?: number | null;
  readonly columns?: Readonly<Record<string, OperatorColumnValue>>;
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

/** Options of {@link UserStore.updatePasswordDigest}. */
export interface PasswordUpdateOptions {
  /** Also sets `credentialsChangedAt` to `now`, signing out what signed in before. */
  readonly endSignIns?: boolean;
}
