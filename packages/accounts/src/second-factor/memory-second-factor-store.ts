import type { SignInMethod } from "../account-hooks.js";
import type {
  SecondFactorChallenge,
  SecondFactorStore,
  TotpEnrolment,
} from "./second-factor-store.js";

/** A {@link SecondFactorStore} in memory: for tests and single-process demos. */
export class MemorySecondFactorStore implements SecondFactorStore {
  readonly #enrolments = new Map<number, TotpEnrolment>();
  readonly #backupCodes = new Map<number, Set<string>>();
  readonly #challenges = new Map<string, SecondFactorChallenge>();

  async findTotp(userId: number): Promise<TotpEnrolment | undefined> {
    return this.#enrolments.get(userId);
  }

  async savePendingTotp(userId: number, sealedKey: string): Promise<boolean> {
    if (this.#enrolments.get(userId)?.confirmedAt != null) return false;
    this.#enrolments.set(userId, { userId, sealedKey, confirmedAt: null, lastUsedStep: null });
    return true;
  }

  async confirmTotp(
    userId: number,
    step: number,
    backupCodeDigests: readonly string[],
    at: number,
  ): Promise<boolean> {
    const enrolment = this.#enrolments.get(userId);
    if (!enrolment || enrolment.confirmedAt !== null) return false;
    this.#enrolments.set(userId, { ...enrolment, confirmedAt: at, lastUsedStep: step });
    this.#backupCodes.set(userId, new Set(backupCodeDigests));
    return true;
  }

  async useTotpStep(userId: number, step: number): Promise<boolean> {
    const enrolment = this.#enrolments.get(userId);
    if (!enrolment || enrolment.confirmedAt === null) return false;
    if (enrolment.lastUsedStep !== null && enrolment.lastUsedStep >= step) return false;
    this.#enrolments.set(userId, { ...enrolment, lastUsedStep: step });
    return true;
  }

  async deleteTotp(userId: number): Promise<void> {
    this.#enrolments.delete(userId);
    this.#backupCodes.delete(userId);
  }

  async replaceBackupCodes(userId: number, digests: readonly string[]): Promise<void> {
    this.#backupCodes.set(userId, new Set(digests));
  }

  async consumeBackupCode(userId: number, digests: readonly string[]): Promise<boolean> {
    const codes = this.#backupCodes.get(userId);
    const found = digests.find((digest) => codes?.has(digest));
    return found !== undefined && (codes?.delete(found) ?? false);
  }

  async countBackupCodes(userId: number): Promise<number> {
    return this.#backupCodes.get(userId)?.size ?? 0;
  }

  async createChallenge(
    digest: string,
    userId: number,
    firstFactor: SignInMethod,
    expiresAt: number,
    at: number,
  ): Promise<void> {
    for (const [stored, challenge] of this.#challenges) {
      if (challenge.userId === userId && challenge.expiresAt <= at) this.#challenges.delete(stored);
    }
    this.#challenges.set(digest, { userId, firstFactor, expiresAt, failures: 0 });
  }

  async findChallenge(digest: string): Promise<SecondFactorChallenge | undefined> {
    return this.#challenges.get(digest);
  }

  async countChallengeAttempt(
    digest: string,
    maximum: number,
    at: number,
  ): Promise<SecondFactorChallenge | undefined> {
    const challenge = this.#challenges.get(digest);
    if (!challenge || challenge.failures >= maximum || challenge.expiresAt <= at) return undefined;
    const counted = { ...challenge, failures: challenge.failures + 1 };
    this.#challenges.set(digest, counted);
    return counted;
  }

  async consumeChallenge(digest: string): Promise<SecondFactorChallenge | undefined> {
    const challenge = this.#challenges.get(digest);
    this.#challenges.delete(digest);
    return challenge;
  }
}
