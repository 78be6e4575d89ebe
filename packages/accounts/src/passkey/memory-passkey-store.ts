import type { NewPasskey, Passkey, PasskeyChallengeScope, PasskeyStore } from "./passkey-store.js";

interface StoredChallenge {
  readonly scope: PasskeyChallengeScope;
  readonly expiresAt: number;
}

/** A {@link PasskeyStore} in memory: for tests and single-process demos. */
export class MemoryPasskeyStore implements PasskeyStore {
  readonly #passkeys = new Map<string, Passkey>();
  readonly #challenges = new Map<string, StoredChallenge>();
  #lastId = 0;

  async createPasskey(passkey: NewPasskey): Promise<Passkey | undefined> {
    if (this.#passkeys.has(passkey.credentialId)) return undefined;
    const stored = { ...passkey, id: ++this.#lastId, lastUsedAt: null };
    this.#passkeys.set(passkey.credentialId, stored);
    return stored;
  }

  async listPasskeys(userId: number): Promise<Passkey[]> {
    return [...this.#passkeys.values()]
      .filter((passkey) => passkey.userId === userId)
      .sort((a, b) => a.id - b.id);
  }

  async countPasskeys(userId: number): Promise<number> {
    return (await this.listPasskeys(userId)).length;
  }

  async findPasskey(credentialId: string): Promise<Passkey | undefined> {
    return this.#passkeys.get(credentialId);
  }

  async renamePasskey(userId: number, id: number, name: string): Promise<boolean> {
    const passkey = this.#owned(userId, id);
    if (passkey) this.#passkeys.set(passkey.credentialId, { ...passkey, name });
    return passkey !== undefined;
  }

  async deletePasskey(userId: number, id: number): Promise<boolean> {
    const passkey = this.#owned(userId, id);
    return passkey !== undefined && this.#passkeys.delete(passkey.credentialId);
  }

  async usePasskey(credentialId: string, counter: number, at: number): Promise<boolean> {
    const passkey = this.#passkeys.get(credentialId);
    if (!passkey || !(counter > passkey.counter || (counter === 0 && passkey.counter === 0))) {
      return false;
    }
    this.#passkeys.set(credentialId, { ...passkey, counter, lastUsedAt: at });
    return true;
  }

  async createChallenge(
    digest: string,
    scope: PasskeyChallengeScope,
    expiresAt: number,
    at: number,
  ): Promise<void> {
    for (const [stored, challenge] of this.#challenges) {
      if (challenge.expiresAt <= at) this.#challenges.delete(stored);
    }
    this.#challenges.set(digest, { scope, expiresAt });
  }

  async consumeChallenge(
    digest: string,
    scope: PasskeyChallengeScope,
  ): Promise<number | undefined> {
    const challenge = this.#challenges.get(digest);
    if (!challenge || scopeKey(challenge.scope) !== scopeKey(scope)) return undefined;
    this.#challenges.delete(digest);
    return challenge.expiresAt;
  }

  #owned(userId: number, id: number): Passkey | undefined {
    return [...this.#passkeys.values()].find(
      (passkey) => passkey.id === id && passkey.userId === userId,
    );
  }
}

/** One text per scope, equal exactly when the scopes are. */
function scopeKey(scope: PasskeyChallengeScope): string {
  switch (scope.purpose) {
    case "sign_in":
      return "sign_in";
    case "registration":
      return `registration:${scope.userId}`;
    case "second_factor":
      return `second_factor:${scope.userId}:${scope.mfaTokenDigest}`;
  }
}
