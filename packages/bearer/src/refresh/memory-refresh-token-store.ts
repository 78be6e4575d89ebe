import {
  type FoundRefreshToken,
  MAXIMUM_REFRESH_GRACE_MS,
  type NewRefreshTokenFamily,
  REVOKED_FAMILY_RETENTION_MS,
  type RefreshTokenFamily,
  type RefreshTokenRecord,
  type RefreshTokenStore,
  type RefreshTokenSuccessor,
} from "./refresh-token-store.js";

/**
 * Refresh token families in this process's memory, for tests and single-process experiments.
 * It keeps the SQL store's semantics, whole seconds included, but there is no user table:
 * nothing is deleted with a user.
 */
export class MemoryRefreshTokenStore implements RefreshTokenStore {
  readonly #families = new Map<number, RefreshTokenFamily>();
  readonly #tokens = new Map<string, RefreshTokenRecord>();
  #nextId = 1;

  async createFamily(family: NewRefreshTokenFamily): Promise<number> {
    if (this.#tokens.has(family.tokenDigest))
      throw new Error("a refresh token with this digest exists");
    const id = this.#nextId++;
    const createdAt = wholeSeconds(family.createdAt);
    this.#families.set(id, {
      id,
      userId: family.userId,
      createdAt,
      lastUsedAt: createdAt,
      expiresAt: wholeSeconds(family.expiresAt),
      revokedAt: null,
      userAgent: family.userAgent,
      ipAddress: family.ipAddress,
      authTime: family.authTime,
      factors: [...family.factors],
    });
    this.#addToken(family.tokenDigest, id, createdAt);
    return id;
  }

  async findToken(digest: string): Promise<FoundRefreshToken | undefined> {
    const token = this.#tokens.get(digest);
    const family = token && this.#families.get(token.familyId);
    if (!token || !family) return undefined;
    return { token: { ...token }, family: { ...family, factors: [...family.factors] } };
  }

  async markUsed(digest: string, successor: RefreshTokenSuccessor, now: number): Promise<boolean> {
    const token = this.#tokens.get(digest);
    const family = token && this.#families.get(token.familyId);
    if (!token || !family || token.usedAt !== null) return false;
    if (family.revokedAt !== null || family.expiresAt <= now) return false;
    if (this.#tokens.has(successor.digest))
      throw new Error("a refresh token with this digest exists");
    const usedAt = wholeSeconds(now);
    for (const other of this.#tokens.values()) {
      if (other.familyId === family.id && other.successorSealed !== null) {
        this.#tokens.set(other.digest, { ...other, successorSealed: null });
      }
    }
    this.#tokens.set(digest, { ...token, usedAt, successorSealed: successor.sealed });
    this.#addToken(successor.digest, family.id, usedAt);
    this.#families.set(family.id, { ...family, lastUsedAt: usedAt });
    return true;
  }

  async revokeFamily(familyId: number, now: number): Promise<boolean> {
    const family = this.#families.get(familyId);
    if (!family || family.revokedAt !== null) return false;
    this.#families.set(familyId, { ...family, revokedAt: wholeSeconds(now) });
    return true;
  }

  async revokeUserFamilies(userId: number, now: number): Promise<number> {
    let revoked = 0;
    for (const family of [...this.#families.values()]) {
      if (family.userId === userId && (await this.revokeFamily(family.id, now))) revoked++;
    }
    return revoked;
  }

  async listFamilies(userId: number, now: number): Promise<RefreshTokenFamily[]> {
    return [...this.#families.values()]
      .filter(
        (family) => family.userId === userId && family.revokedAt === null && family.expiresAt > now,
      )
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
      .map((family) => ({ ...family, factors: [...family.factors] }));
  }

  async deleteExpired(now: number): Promise<number> {
    const revokedBefore = now - REVOKED_FAMILY_RETENTION_MS;
    const ended = new Set<number>();
    for (const family of this.#families.values()) {
      const revokedLongAgo = family.revokedAt !== null && family.revokedAt <= revokedBefore;
      if (family.expiresAt <= now || revokedLongAgo) ended.add(family.id);
    }
    for (const id of ended) this.#families.delete(id);
    const forgetBefore = now - MAXIMUM_REFRESH_GRACE_MS;
    for (const token of [...this.#tokens.values()]) {
      if (ended.has(token.familyId)) {
        this.#tokens.delete(token.digest);
      } else if (
        token.successorSealed !== null &&
        token.usedAt !== null &&
        token.usedAt <= forgetBefore
      ) {
        this.#tokens.set(token.digest, { ...token, successorSealed: null });
      }
    }
    return ended.size;
  }

  #addToken(digest: string, familyId: number, createdAt: number): void {
    this.#tokens.set(digest, { digest, familyId, createdAt, usedAt: null, successorSealed: null });
  }
}

/** The instant rounded down to the second, as the SQL store's timestamp text keeps it. */
function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
