import { describe, expect, it } from "vitest";
import {
  backupCodeDigest,
  newBackupCodes,
  readBackupCode,
} from "../src/second-factor/backup-codes.js";
import {
  matchingTotpStep,
  newTotpKey,
  readTotpCode,
  totpCode,
  totpKeyUri,
  totpStep,
} from "../src/second-factor/totp.js";
import {
  openTotpKey,
  sealTotpKey,
  totpSealingKeys,
} from "../src/second-factor/totp-key-sealing.js";
import rfc6238 from "./vectors/rfc6238-sha1.json" with { type: "json" };

describe("TOTP codes", () => {
  it("match RFC 6238's SHA-1 test vectors", () => {
    const seed = new TextEncoder().encode(rfc6238.seed);
    for (const { time, totp } of rfc6238.vectors) {
      expect(totpCode(seed, time * 1000, rfc6238.digits)).toBe(totp);
    }
    // Six digits are the last six of the eight.
    expect(totpCode(seed, 59_000)).toBe("287082");
  });

  it("accept one step of drift either way, and nothing further", () => {
    const key = newTotpKey();
    const now = Date.UTC(2026, 10, 26, 12, 0, 15);
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      const code = totpCode(key, now + offset * 30_000);
      expect(matchingTotpStep(key, code, now, null)).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      expect(
        matchingTotpStep(key, totpCode(key, now + offset * 30_000), now, null),
      ).toBeUndefined();
    }
  });

  it("refuse a code of the last used step or an earlier one", () => {
    const key = newTotpKey();
    const now = Date.UTC(2026, 10, 26, 12, 0, 15);
    const code = totpCode(key, now);
    expect(matchingTotpStep(key, code, now, totpStep(now))).toBeUndefined();
    expect(matchingTotpStep(key, code, now, totpStep(now) + 1)).toBeUndefined();
    expect(matchingTotpStep(key, code, now, totpStep(now) - 1)).toBe(totpStep(now));
  });

  it("are read as six digits, spaces allowed, and nothing else", () => {
    expect(readTotpCode("123 456")).toBe("123456");
    expect(readTotpCode(" 123456\n")).toBe("123456");
    for (const junk of ["12345", "1234567", "12345a", "١٢٣٤٥٦", "", "1".repeat(10_000)]) {
      expect(readTotpCode(junk)).toBeUndefined();
    }
  });

  it("come from a 160-bit key the URI carries with its issuer", () => {
    const key = newTotpKey();
    expect(key).toHaveLength(20);
    const uri = new URL(totpKeyUri("Tessera App", "ada@example.com", key));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Tessera App:ada@example.com");
    expect(uri.searchParams.get("issuer")).toBe("Tessera App");
    expect(uri.searchParams.get("secret")).toMatch(/^[A-Z2-7]{32}$/);
  });
});

describe("TOTP keys at rest", () => {
  const keys = totpSealingKeys({ current: "a-secret-key-base-of-at-least-32-characters" });

  it("open only for the user they were sealed for, and not once tampered with", async () => {
    const key = newTotpKey();
    const sealed = await sealTotpKey(keys, 7, key);
    expect(sealed).not.toContain(Buffer.from(key).toString("base64url"));
    expect(await openTotpKey(keys, 7, sealed)).toEqual(key);
    expect(await openTotpKey(keys, 8, sealed)).toBeUndefined();
    const middle = Math.floor(sealed.length / 2);
    const tampered = `${sealed.slice(0, middle)}${sealed[middle] === "A" ? "B" : "A"}${sealed.slice(middle + 1)}`;
    expect(await openTotpKey(keys, 7, tampered)).toBeUndefined();
    const otherBase = totpSealingKeys({ current: "another-secret-key-base-of-32-characters!" });
    expect(await openTotpKey(otherBase, 7, sealed)).toBeUndefined();
  });
});

describe("backup codes", () => {
  it("are ten distinct codes of ten Crockford base32 letters", () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it("are read as issued: any case, trimmed, the hyphen optional, i, l and o as 1, 1 and 0", () => {
    expect(readBackupCode("abcde-fgh12")).toBe("abcdefgh12");
    expect(readBackupCode("ABCDE-FGH12")).toBe("abcdefgh12");
    expect(readBackupCode("abcdefgh12")).toBe("abcdefgh12");
    expect(readBackupCode(" abcde-fgh12\n")).toBe("abcdefgh12");
    expect(readBackupCode("\tABCDEFGH12 ")).toBe("abcdefgh12");
    expect(readBackupCode("oiLab-cdefg")).toBe("011abcdefg");
  });

  it("are refused with anything inserted, moved or missing", () => {
    for (const altered of [
      "abcde fgh12",
      "a b c d e f g h 1 2",
      "abcde - fgh12",
      "abcde--fgh12",
      "ab-cde-fgh12",
      "abcd-efgh12",
      "-abcdefgh12",
      "abcdefgh12-",
      "abcde_fgh12",
      "abcde\u00a0fgh12",
      "abcde\u200bfgh12",
      "abcde-fgh1",
      "abcde-fgh123",
      "abcde-fgh1u",
      "",
      "x".repeat(5000),
    ]) {
      expect(readBackupCode(altered), JSON.stringify(altered)).toBeUndefined();
    }
  });

  it("are stored as keyed digests that differ per key", () => {
    const code = "abcdefgh12";
    const one = backupCodeDigest(new Uint8Array(32).fill(1), code);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(one).not.toContain(code);
    expect(backupCodeDigest(new Uint8Array(32).fill(2), code)).not.toBe(one);
  });
});
