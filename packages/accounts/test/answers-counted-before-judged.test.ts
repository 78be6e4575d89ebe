import { sha256Hex } from "@tessera/crypto";
import { createFailureThrottle, MemoryFailureStreakStore } from "@tessera/ratelimit";
import { describe, expect, it } from "vitest";
import {
  consumeEmailCode,
  EMAIL_CODE_MAXIMUM_FAILURES,
  emailCodeKeys,
  issueEmailCode,
  MemoryEmailCodeStore,
  MemorySecondFactorStore,
  MFA_MAXIMUM_FAILURES,
  secondFactors,
  totpCode,
} from "../src/index.js";
import {
  completeSecondFactor,
  startSecondFactor,
} from "../src/second-factor/second-factor-sign-in.js";
import { newTotpKey, totpStep } from "../src/second-factor/totp.js";
import { sealTotpKey } from "../src/second-factor/totp-key-sealing.js";

const SECRET_KEY_BASE = { current: "a-secret-key-base-of-at-least-32-characters" };
const NOW = Date.UTC(2026, 10, 26, 12, 0, 10);
const ADA = 7;

/** A six-digit code that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** A second-factor store that counts the TOTP enrolment reads: one per typed code judged. */
class JudgeCountingStore extends MemorySecondFactorStore {
  judged = 0;
  override async findTotp(userId: number) {
    this.judged++;
    return super.findTotp(userId);
  }
}

describe("a burst of answers on one mfa_token", () => {
  it(`judges no more than ${MFA_MAXIMUM_FAILURES} of them, and refuses a right code after those`, async () => {
    const store = new JudgeCountingStore();
    const factors = secondFactors(store, SECRET_KEY_BASE, { issuer: "Test", clock: () => NOW });
    const key = newTotpKey();
    await store.savePendingTotp(ADA, await sealTotpKey(factors.totpKeys, ADA, key));
    await store.confirmTotp(ADA, totpStep(NOW) - 1, [], NOW);
    const started = await startSecondFactor(factors, ADA, "password");
    const accountLimiter = createFailureThrottle({
      store: new MemoryFailureStreakStore(),
      clock: () => NOW,
    });
    store.judged = 0;

    const right = totpCode(key, NOW);
    const burst = [...Array(19).fill(otherThan(right)), right].map((code) =>
      completeSecondFactor(factors, started!.mfaToken, { code }, accountLimiter),
    );
    const outcomes = (await Promise.all(burst)).map((outcome) =>
      outcome.ok ? "signed-in" : outcome.reason,
    );

    expect(store.judged).toBe(MFA_MAXIMUM_FAILURES);
    expect(outcomes.filter((outcome) => outcome === "wrong-code")).toHaveLength(
      MFA_MAXIMUM_FAILURES - 1,
    );
    expect(outcomes.at(-1)).toBe("void");
    expect(await store.findChallenge(sha256Hex(started!.mfaToken))).toBeUndefined();
  });
});

describe("answers spread over many mfa_tokens of one account", () => {
  it("are judged no more than the account's throttle allows, then refused with the wait", async () => {
    const store = new JudgeCountingStore();
    const factors = secondFactors(store, SECRET_KEY_BASE, { issuer: "Test", clock: () => NOW });
    const key = newTotpKey();
    await store.savePendingTotp(ADA, await sealTotpKey(factors.totpKeys, ADA, key));
    await store.confirmTotp(ADA, totpStep(NOW) - 1, [], NOW);
    const throttle = createFailureThrottle({
      store: new MemoryFailureStreakStore(),
      clock: () => NOW,
    });
    const tokens = await Promise.all(
      Array.from({ length: 30 }, async () => (await startSecondFactor(factors, ADA, "password"))!),
    );
    store.judged = 0;
    const wrong = otherThan(totpCode(key, NOW));
    const outcomes = await Promise.all(
      tokens.map(({ mfaToken }) =>
        completeSecondFactor(factors, mfaToken, { code: wrong }, throttle),
      ),
    );

    expect(store.judged).toBe(10);
    const throttled = outcomes.filter((outcome) => !outcome.ok && outcome.reason === "throttled");
    expect(throttled).toHaveLength(20);
    expect(throttled[0]).toMatchObject({ retryAfterSeconds: 60 });
    // Even the right code waits: the count is the account's, not the token's.
    const late = await startSecondFactor(factors, ADA, "password");
    const right = await completeSecondFactor(
      factors,
      late!.mfaToken,
      { code: totpCode(key, NOW) },
      throttle,
    );
    expect(right).toMatchObject({ ok: false, reason: "throttled" });
  });
});

describe("a burst of tries on one emailed code", () => {
  it(`judges no more than ${EMAIL_CODE_MAXIMUM_FAILURES} of them, and refuses the right code after those`, async () => {
    const store = new MemoryEmailCodeStore();
    const keys = emailCodeKeys(SECRET_KEY_BASE);
    const clock = () => NOW;
    const right = await issueEmailCode(store, keys, ADA, clock);
    const burst = [...Array(19).fill(otherThan(right)), right].map((code) =>
      consumeEmailCode(store, keys, ADA, code, clock),
    );
    const outcomes = await Promise.all(burst);

    expect(outcomes.every((outcome) => !outcome.ok)).toBe(true);
    expect((await store.find(ADA))?.failures).toBe(EMAIL_CODE_MAXIMUM_FAILURES);
    expect((await consumeEmailCode(store, keys, ADA, right, clock)).ok).toBe(false);
  });
});
