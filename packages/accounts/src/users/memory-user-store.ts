import { fail, ok, type Result } from "@tessera/core";
import type { OperatorColumnValue } from "../profile/operator-columns.js";
import type { User, UserRole } from "./user.js";
import type {
  NewUser,
  PasswordUpdateOptions,
  UserAdministration,
  UserSearch,
  UserStore,
} from "./user-store.js";

/**
 * Users in memory, for tests and single-process prototypes: the same answers as the SQL store
 * (one user per email, ids from 1, times in whole seconds). Deleting a user cannot
 * reach other memory stores: its keys and tokens stay, and find nobody when used.
 */
export class MemoryUserStore implements UserStore, UserAdministration {
  readonly #users = new Map<number, User>();
  #lastId = 0;

  async create(user: NewUser, now: number): Promise<Result<User, "email-taken">> {
    // Checked and inserted without an await between: racing creates see each other.
    if (this.#withEmail(user.email) !== undefined) return fail("email-taken");
    const timestamp = wholeSeconds(now);
    const created: User = {
      id: ++this.#lastId,
      email: user.email,
      passwordDigest: user.passwordDigest,
      confirmedAt: user.confirmedAt == null ? null : wholeSeconds(user.confirmedAt),
      credentialsChangedAt: null,
      createdAt: timestamp,
      updatedAt: timestamp,
      columns: { ...(user.columns as Record<string, OperatorColumnValue> | undefined) },
      role: "user",
      ban: null,
      impersonationsEndedAt: null,
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

  async updatePasswordDigest(
    id: number,
    passwordDigest: string,
    now: number,
    options: PasswordUpdateOptions = {},
  ): Promise<void> {
    const user = this.#users.get(id);
    if (!user) return;
    const timestamp = wholeSeconds(now);
    const ended = options.endSignIns ? { credentialsChangedAt: timestamp } : {};
    this.#users.set(id, { ...user, passwordDigest, updatedAt: timestamp, ...ended });
  }

  async confirm(id: number, now: number): Promise<void> {
    const user = this.#users.get(id);
    if (!user || user.confirmedAt !== null) return;
    const timestamp = wholeSeconds(now);
    this.#users.set(id, { ...user, confirmedAt: timestamp, updatedAt: timestamp });
  }

  async changeEmail(
    id: number,
    email: string,
    now: number,
  ): Promise<Result<User, "email-taken" | "not-found">> {
    const user = this.#users.get(id);
    if (!user) return fail("not-found");
    const holder = this.#withEmail(email);
    if (holder !== undefined && holder.id !== id) return fail("email-taken");
    const timestamp = wholeSeconds(now);
    const changed = { ...user, email, confirmedAt: timestamp, updatedAt: timestamp };
    this.#users.set(id, changed);
    return ok(changed);
  }

  async updateColumns(
    id: number,
    columns: Readonly<Record<string, OperatorColumnValue>>,
    now: number,
  ): Promise<User | undefined> {
    const user = this.#users.get(id);
    if (!user) return undefined;
    const changed = {
      ...user,
      columns: { ...user.columns, ...columns },
      updatedAt: wholeSeconds(now),
    };
    this.#users.set(id, changed);
    return changed;
  }

  async setRole(id: number, role: UserRole, now: number): Promise<boolean> {
    const user = this.#users.get(id);
    if (!user) return false;
    this.#users.set(id, { ...user, role, updatedAt: wholeSeconds(now) });
    return true;
  }

  async ban(
    id: number,
    ban: { readonly reason: string; readonly until: number | null },
    now: number,
  ): Promise<User | undefined> {
    const user = this.#users.get(id);
    if (!user) return undefined;
    const timestamp = wholeSeconds(now);
    const until = ban.until === null ? null : wholeSeconds(ban.until);
    const changed: User = {
      ...user,
      ban: { reason: ban.reason, at: timestamp, until },
      credentialsChangedAt: timestamp,
      updatedAt: timestamp,
    };
    this.#users.set(id, changed);
    return changed;
  }

  async endSignIns(id: number, now: number): Promise<boolean> {
    const user = this.#users.get(id);
    if (!user) return false;
    const timestamp = wholeSeconds(now);
    this.#users.set(id, { ...user, credentialsChangedAt: timestamp, updatedAt: timestamp });
    return true;
  }

  async endImpersonations(id: number, now: number): Promise<boolean> {
    const user = this.#users.get(id);
    if (!user) return false;
    const timestamp = wholeSeconds(now);
    this.#users.set(id, { ...user, impersonationsEndedAt: timestamp, updatedAt: timestamp });
    return true;
  }

  async unban(id: number, now: number): Promise<User | undefined> {
    const user = this.#users.get(id);
    if (!user) return undefined;
    const changed: User = { ...user, ban: null, updatedAt: wholeSeconds(now) };
    this.#users.set(id, changed);
    return changed;
  }

  async searchUsers(search: UserSearch): Promise<User[]> {
    const query = search.query?.trim().toLowerCase() ?? "";
    const found = [...this.#users.values()]
      .filter((user) => search.after === undefined || user.id < search.after)
      .filter((user) => {
        if (query === "") return true;
        const name = user.columns.name;
        return (
          user.email.includes(query) ||
          (typeof name === "string" && name.toLowerCase().includes(query))
        );
      })
      .sort((a, b) => b.id - a.id);
    const offset = search.offset ?? 0;
    return found.slice(offset, offset + search.limit);
  }
}

/** The instant rounded down to the second, as a SQL store's timestamp text keeps it. */
function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
