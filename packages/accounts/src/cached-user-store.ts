import { type CredentialCacheOptions, credentialCache } from "@tessera/bearer";
import type { ExpiringCache, Result } from "@tessera/core";
import type { User } from "./user.js";
import type { NewUser, UserStore } from "./user-store.js";

/**
 * A {@link UserStore} that remembers users found by id for `maximumStalenessMs`, so a request
 * with a bearer token or a session makes no user query. Deleting a user, changing a password
 * or confirming an address through this store takes effect at once in this process; a change
 * made by another process (another worker, another machine) is seen at most
 * `maximumStalenessMs` later. With the default of 0 every lookup asks the store. Lookups by
 * email (sign-in) always ask it.
 */
export class CachedUserStore implements UserStore {
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

  async delete(id: number): Promise<boolean> {
    try {
      return await this.store.delete(id);
    } finally {
      this.#users.delete(id);
    }
  }

  async updatePasswordDigest(id: number, passwordDigest: string, now: number): Promise<void> {
    try {
      await this.store.updatePasswordDigest(id, passwordDigest, now);
    } finally {
      this.#users.delete(id);
    }
  }

  async confirm(id: number, now: number): Promise<void> {
    try {
      await this.store.confirm(id, now);
    } finally {
      this.#users.delete(id);
    }
  }
}
