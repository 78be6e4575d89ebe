import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_ITERATIONS,
  hashPassword,
  parsePasswordDigest,
  verifyDummyPassword,
  verifyPassword,
} from "../src/index.js";

const FAST = { iterations: 1000 };

describe("hashPassword", () => {
  it("writes pbkdf2_sha256$100000$<22-character URL-safe salt>$<44-character base64 hash>", async () => {
    const digest = await hashPassword("correct horse");
    expect(digest).toMatch(/^pbkdf2_sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9+/]{43}=$/);
    expect(DEFAULT_ITERATIONS).toBe(100000);
  });

  it("uses a fresh salt each time", async () => {
    const first = await hashPassword("correct horse", FAST);
    const second = await hashPassword("correct horse", FAST);
    expect(first).not.toBe(second);
    const salts = [first, second].map((digest) => digest.split("$")[2]);
    expect(salts[0]).not.toBe(salts[1]);
  });

  it("writes the configured iteration count", async () => {
    expect(await hashPassword("correct horse", { iterations: 1234 })).toMatch(
      /^pbkdf2_sha256\$1234\$/,
    );
  });

  it.each([999, 2_000_001, 1500.5, Number.NaN, Number.POSITIVE_INFINITY, 0, -100000])(
    "refuses %s iterations as a programmer error",
    async (iterations) => {
      await expect(hashPassword("correct horse", { iterations })).rejects.toThrow(RangeError);
      await expect(verifyPassword("x", "y", { iterations })).rejects.toThrow(RangeError);
      await expect(verifyDummyPassword("x", { iterations })).rejects.toThrow(RangeError);
    },
  );
});

describe("verifyPassword", () => {
  it("accepts the password at the default count without asking for a rehash", async () => {
    const digest = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", digest)).toEqual({
      valid: true,
      needsRehash: false,
    });
  });

  it("refuses another password, a prefix, a case change and added whitespace", async () => {
    const digest = await hashPassword("correct horse", FAST);
    for (const wrong of ["Correct horse", "correct hors", "correct horse ", " correct horse", ""]) {
      expect(await verifyPassword(wrong, digest, FAST)).toEqual({
        valid: false,
        needsRehash: false,
      });
    }
  });

  it("hashes Unicode as UTF-8 without normalizing it", async () => {
    const composed = "p\u00e4sswörd";
    const decomposed = "pa\u0308sswörd";
    const digest = await hashPassword(composed, FAST);
    expect((await verifyPassword(composed, digest, FAST)).valid).toBe(true);
    expect((await verifyPassword(decomposed, digest, FAST)).valid).toBe(false);
  });

  it("asks for a rehash only when the digest's iteration count is below the configured one", async () => {
    const lower = await hashPassword("correct horse", { iterations: 1000 });
    const same = await hashPassword("correct horse", { iterations: 1500 });
    const higher = await hashPassword("correct horse", { iterations: 2000 });
    expect(await verifyPassword("correct horse", lower, { iterations: 1500 })).toEqual({
      valid: true,
      needsRehash: true,
    });
    expect(await verifyPassword("correct horse", same, { iterations: 1500 })).toEqual({
      valid: true,
      needsRehash: false,
    });
    // A stronger digest (Django's 260000 against our 100000) is kept, never downgraded.
    expect(await verifyPassword("correct horse", higher, { iterations: 1500 })).toEqual({
      valid: true,
      needsRehash: false,
    });
  });

  it("keeps a 260000-iteration digest at the default 100000, and rehashes a 30000 one", async () => {
    // Digests as Django writes them at those counts (22-character salts).
    const digestAt = (iterations: number) => hashPassword("correct horse", { iterations });
    expect(await verifyPassword("correct horse", await digestAt(260_000))).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect(await verifyPassword("correct horse", await digestAt(30_000))).toEqual({
      valid: true,
      needsRehash: true,
    });
  });

  it("never asks for a rehash on a wrong password", async () => {
    const outdated = await hashPassword("correct horse", { iterations: 1000 });
    expect(await verifyPassword("wrong horse", outdated, { iterations: 1500 })).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("refuses a digest whose hash was changed in one bit", async () => {
    const digest = await hashPassword("correct horse", FAST);
    const parsed = parsePasswordDigest(digest);
    if (!parsed.ok) throw new Error("hashPassword wrote an unreadable digest");
    const hashText = digest.split("$")[3]!;
    const flipped = hashText[0] === "A" ? `B${hashText.slice(1)}` : `A${hashText.slice(1)}`;
    const tampered = digest.replace(hashText, flipped);
    expect(await verifyPassword("correct horse", tampered, FAST)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });
});

describe("dummy work", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function recordDerivations(): { iterations: number; length: number }[] {
    const calls: { iterations: number; length: number }[] = [];
    const subtle = globalThis.crypto.subtle;
    const deriveBits = subtle.deriveBits.bind(subtle);
    vi.spyOn(subtle, "deriveBits").mockImplementation((algorithm, key, length) => {
      calls.push({ iterations: (algorithm as Pbkdf2Params).iterations, length: length ?? 0 });
      return deriveBits(algorithm, key, length);
    });
    return calls;
  }

  it("verifyDummyPassword always refuses, after real PBKDF2 at the configured count", async () => {
    const calls = recordDerivations();
    expect(await verifyDummyPassword("correct horse")).toEqual({
      valid: false,
      needsRehash: false,
    });
    expect(await verifyDummyPassword("")).toEqual({ valid: false, needsRehash: false });
    expect(await verifyDummyPassword("correct horse", { iterations: 4321 })).toEqual({
      valid: false,
      needsRehash: false,
    });
    expect(calls).toEqual([
      { iterations: 100000, length: 256 },
      { iterations: 100000, length: 256 },
      { iterations: 4321, length: 256 },
    ]);
  });

  it("a real check and a dummy check derive with the same parameters", async () => {
    const digest = await hashPassword("correct horse");
    const calls = recordDerivations();
    await verifyPassword("wrong horse", digest);
    await verifyDummyPassword("wrong horse");
    expect(calls[0]).toEqual({ iterations: 100000, length: 256 });
    expect(calls[1]).toEqual(calls[0]);
  });

  it("a malformed, empty or missing digest costs a dummy check, like a wrong password", async () => {
    const calls = recordDerivations();
    const refused = { valid: false, needsRehash: false };
    expect(await verifyPassword("correct horse", "")).toEqual(refused);
    expect(await verifyPassword("correct horse", "pbkdf2_sha256$9999999999$salt$hash")).toEqual(
      refused,
    );
    expect(await verifyPassword("correct horse", null)).toEqual(refused);
    expect(await verifyPassword("correct horse", undefined)).toEqual(refused);
    expect(calls).toEqual(Array.from({ length: 4 }, () => ({ iterations: 100000, length: 256 })));
  });
});
