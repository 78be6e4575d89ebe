import { fail, ok, type Result } from "@tessera/core";
import type { Identity, IdentityStore, NewIdentity } from "./identity-store.js";

/**
 * Identities in this process's memory: for tests and single-process experiments. It knows
 * nothing of users, so unlike the SQLite store it does not follow a user's deletion.
 */
export class MemoryIdentityStore implements IdentityStore {
  // Keyed by provider and subject; a provider name cannot hold a newline.
  readonly #identities = new Map<string, Identity>();
  #nextId = 1;

  async findUserId(provider: string, subject: string): Promise<number | undefined> {
    return this.#identities.get(`${provider}\n${subject}`)?.userId;
  }

  async link(identity: NewIdentity, now: number): Promise<Result<Identity, "already-linked">> {
    const key = `${identity.provider}\n${identity.subject}`;
    if (this.#identities.has(key)) return fail("already-linked");
    // Whole seconds, as a SQL store's timestamp text keeps them.
    const timestamp = Math.floor(now / 1000) * 1000;
    const stored: Identity = {
      id: this.#nextId++,
      userId: identity.userId,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.#identities.set(key, stored);
    return ok({ ...stored });
  }

  async listForUser(userId: number): Promise<Identity[]> {
    return [...this.#identities.values()]
      .filter((identity) => identity.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((identity) => ({ ...identity }));
  }
}
