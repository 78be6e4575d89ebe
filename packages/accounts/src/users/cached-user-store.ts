import { type CredentialCacheOptions, credentialCache } from "@tessera/bearer";
import type { ExpiringCache, Result } from "@tessera/core";
import type { OperatorColumnValue } from "../profile/operator-columns.js";
import type { User, UserRole } from "./user.js";
import {
  isUserAdministration,
  type NewUser,
  type PasswordUpdateOptions,
  type UserAdministration,
  type UserSearch,
  type UserStore,
} from "./user-store.js";

/**
 * A {@link UserStore} that remembers users found by id for `maximumStalenessMs`, so a request
 * with a bearer token or a session makes no user query. Deleting a user, changing a password,
 * an address or a column, or confirming an address, through this store takes effect at once in this process; a change
 * made by another process (another worker, another machine) is seen at most
 * `maximumStalenessMs` later. With the default of 0 every lookup asks the store. Lookups by
 * email (sign-in) always ask it.
 */
export class CachedUserStore implements UserStore, UserAdministration {
  readonly #users: ExpiringCache<number, User>;

  constructor(
    private readonly store: UserStore,
    options: CredentialCacheOptions = {},
  ) {
    this.#users = credentialCache(options);
  }

  create(user: NewUser, now: number): Promise<Result<User, "email-taken">> {
    return this.store.create(user, now);
  }

  findById(id: number): Promise<User | undefined> {
    return this.#users.getOrLoad(id, () => this.store.findById(id));
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.store.findByEmail(email);
  }

  // Each change forgets the user once it is written: a lookup that read the row before then
  // is not kept (see ExpiringCache.getOrLoad), and any lookup after it reads the new row.

  delete(id: number): Promise<boolean> {
    return this.#forgetting(id, () => this.store.delete(id));
  }

  updatePasswordDigest(
    id: number,
    passwordDigest: string,
    now: number,
    options?: PasswordUpdateOptions,
  ): Promise<void> {
    return this.#forgetting(id, () =>
      this.store.updatePasswordDigest(id, passwordDigest, now, options),
    );
  }

  confirm(id: number, now: number): Promise<void> {
    return this.#forgetting(id, () => this.store.confirm(id, now));
  }

  changeEmail(
    id: number,
    email: string,
    now: number,
  ): Promise<Result<User, "email-taken" | "not-found">> {
    return this.#forgetting(id, () => this.store.changeEmail(id, email, now));
  }

  updateColumns(
    id: number,
    columns: Readonly<Record<string, OperatorColumnValue>>,
    now: number,
  ): Promise<User | undefined> {
    return this.#forgetting(id, () => this.store.updateColumns(id, columns, now));
  }

  setRole(id: number, role: UserRole, now: number): Promise<boolean> {
    return this.#forgetting(id, () => this.#administration().setRole(id, role, now));
  }

  ban(
    id: number,
    ban: { readonly reason: string; readonly until: number | null },
    now: number,
  ): Promise<User | undefined> {
    return this.#forgetting(id, () => this.#administration().ban(id, ban, now));
  }

  endSignIns(id: number, now: number): Promise<boolean> {
    return this.#forgetting(id, () => this.#administration().endSignIns(id, now));
  }

  endImpersonations(id: number, now: number): Promise<boolean> {
    return this.#forgetting(id, () => this.#administration().endImpersonations(id, now));
  }

  unban(id: number, now: number): Promise<User | undefined> {
    return this.#forgetting(id, () => this.#administration().unban(id, now));
  }

  searchUsers(search: UserSearch): Promise<User[]> {
    return this.#administration().searchUsers(search);
  }

  /** The wrapped store's administration: a store without it cannot serve the admin routes. */
  #administration(): UserAdministration {
    if (!isUserAdministration(this.store)) {
      throw new TypeError("the cached user store administers users only over a store that does");
    }
    return this.store;
  }

  async #forgetting<T>(id: number, change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.#users.delete(id);
    }
  }
}
