import type {
  NewTrackedSession,
  TrackedSession,
  TrackedSessionStore,
} from "./tracked-session-store.js";

/** Rounds down to the second, as the SQL stores' timestamp text does. */
function toSecond(epochMs: number): number {
  return Math.floor(epochMs / 1000) * 1000;
}

/**
 * Tracked sessions in this process's memory: for tests and single-process experiments. It keeps
 * the SQLite store's semantics, down to the one-second resolution of every time.
 */
export class MemoryTrackedSessionStore implements TrackedSessionStore {
  readonly #sessions = new Map<number, TrackedSession & { readonly digest: string }>();
  #nextId = 1;

  async create(session: NewTrackedSession): Promise<TrackedSession> {
    for (const stored of this.#sessions.values()) {
      if (stored.digest === session.digest) throw new Error("a session with this digest exists");
    }
    const id = this.#nextId++;
    const createdAt = toSecond(session.createdAt);
    this.#sessions.set(id, {
      id,
      userId: session.userId,
      digest: session.digest,
      ipAddress: session.ipAddress,
      browser: session.browser,
      userAgent: session.userAgent,
      lastSeenAt: createdAt,
      expiresAt: toSecond(session.expiresAt),
      createdAt,
      factors: [...(session.factors ?? [])],
    });
    return this.#record(id)!;
  }

  async findByDigest(userId: number, digest: string): Promise<TrackedSession | undefined> {
    for (const stored of this.#sessions.values()) {
      if (stored.digest === digest && stored.userId === userId) return this.#record(stored.id);
    }
    return undefined;
  }

  async listForUser(userId: number, now: number): Promise<TrackedSession[]> {
    const current = toSecond(now);
    return [...this.#sessions.values()]
      .filter((stored) => stored.userId === userId && stored.expiresAt > current)
      .sort((a, b) => b.lastSeenAt - a.lastSeenAt || b.id - a.id)
      .map((stored) => this.#record(stored.id)!);
  }

  async touchLastSeen(id: number, seenAt: number, staleAt: number): Promise<boolean> {
    const stored = this.#sessions.get(id);
    if (!stored || stored.lastSeenAt > toSecond(staleAt)) return false;
    this.#sessions.set(id, { ...stored, lastSeenAt: toSecond(seenAt) });
    return true;
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    if (this.#sessions.get(id)?.userId !== userId) return false;
    return this.#sessions.delete(id);
  }

  async deleteOthersForUser(userId: number, keepId: number | undefined): Promise<number> {
    return this.#deleteWhere((stored) => stored.userId === userId && stored.id !== keepId);
  }

  async deleteExpired(now: number): Promise<number> {
    const current = toSecond(now);
    return this.#deleteWhere((stored) => stored.expiresAt <= current);
  }

  #deleteWhere(matches: (stored: TrackedSession) => boolean): number {
    let deleted = 0;
    for (const stored of [...this.#sessions.values()]) {
      if (matches(stored) && this.#sessions.delete(stored.id)) deleted++;
    }
    return deleted;
  }

  /** A copy without the digest, so callers can neither see nor change what is stored. */
  #record(id: number): TrackedSession | undefined {
    const stored = this.#sessions.get(id);
    if (!stored) return undefined;
    const { digest: _digest, ...record } = stored;
    return record;
  }
}
