import { fail, formatTimestamp, ok, type Result } from "@tessera/crypto";
import type { ColumnValue } from "./operator-columns.js";
import type { User } from "./user.js";
import type { NewUser, UserStore } from "./user-store.js";

/**
 * Users in memory, for tests and single-process prototypes: the same answers as the SQL store
 * (one user per email, ids from 1, times as `YYYY-MM-DD HH:MM:SS` text). Deleting a user cannot
 * reach other memory stores: its keys and tokens stay, and find nobody when used.
 */
export class MemoryUserStore implements UserStore {
  readonly #users = new Map<number, User>();
  #lastId = 0;

  async create(user: NewUser, now: number): Promise<Result<User, "email-taken">> {
    // Checked and inserted without an await between: racing creates see each other.
    if (this.#withEmail(user.email) !== undefined) return fail("email-taken");
    const timestamp = formatTimestamp(now);
    const created: User = {
      id: ++this.#lastId,
      email: user.email,
      passwordDigest: user.passwordDigest,
      confirmedAt: user.confirmedAt ?? null,
      createdAt: timestamp,
      updatedAt: timestamp,
      columns: { ...(user.columns as Record<string, ColumnValue> | undefined) },
    };
    this.#users.set(created.id, created);
    return ok(created);
  }

  async findById(id: number): Promise<User | undefined> {
    return this.#users.get(id);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    return this.#withEmail(email);
  }

  #withEmail(email: string): User | undefined {
    for (const user of this.#users.values()) if (user.email === email) return user;
    return undefined;
  }

  async delete(id: number): Promise<boolean> {
    return this.#users.delete(id);
  }

  async updatePasswordDigest(id: number, passwordDigest: string, now: number): Promise<void> {
    const user = this.#users.get(id);
    if (user) this.#users.set(id, { ...user, passwordDigest, updatedAt: formatTimestamp(now) });
  }

  async confirm(id: number, now: number): Promise<void> {
    const user = this.#users.get(id);
    if (!user || user.confirmedAt !== null) return;
    const timestamp = formatTimestamp(now);
    this.#users.set(id, { ...user, confirmedAt: timestamp, updatedAt: timestamp });
  }
}
