import { describe, expect, it } from "vitest";
import { formatPasswordDigest, parsePasswordDigest } from "../src/digest-format.js";
import { verifyPassword } from "../src/index.js";

const SALT = "seasalt";
const HASH = "8xBlGd3jVgvJ+92hWPxi5ww0uuAuAnKgC45eudxro7c=";
const digestWith = (iterations: string, salt = SALT, hash = HASH) =>
  `pbkdf2_sha256$${iterations}$${salt}$${hash}`;

describe("parsePasswordDigest", () => {
  it("reads the four parts of a well-formed digest", () => {
    const parsed = parsePasswordDigest(digestWith("390000"));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.iterations).toBe(390000);
    expect(parsed.value.salt).toBe("seasalt");
    expect(parsed.value.hash).toHaveLength(32);
  });

  it("accepts the iteration bounds themselves", () => {
    expect(parsePasswordDigest(digestWith("1000")).ok).toBe(true);
    expect(parsePasswordDigest(digestWith("2000000")).ok).toBe(true);
  });

  const refusals: [string, string, string][] = [
    ["empty", "", "malformed"],
    ["algorithm alone", "pbkdf2_sha256", "malformed"],
    ["three parts", `pbkdf2_sha256$390000$${HASH}`, "malformed"],
    ["five parts (salt containing $)", digestWith("390000", "sea$salt"), "malformed"],
    ["trailing $", `${digestWith("390000")}$`, "malformed"],
    ["another algorithm", `pbkdf2_sha1$390000$${SALT}$${HASH}`, "unknown-algorithm"],
    ["algorithm in capitals", `PBKDF2_SHA256$390000$${SALT}$${HASH}`, "unknown-algorithm"],
    ["bcrypt", "bcrypt$$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0", "malformed"],
    ["empty iteration count", digestWith(""), "malformed"],
    ["zero", digestWith("0"), "malformed"],
    ["leading zero", digestWith("0390000"), "malformed"],
    ["plus sign", digestWith("+390000"), "malformed"],
    ["minus sign", digestWith("-390000"), "malformed"],
    ["exponent", digestWith("39e4"), "malformed"],
    ["decimal point", digestWith("390000.0"), "malformed"],
    ["space", digestWith(" 390000"), "malformed"],
    ["hex", digestWith("0x5f370"), "malformed"],
    ["Arabic-Indic digits", digestWith("٣٩٠٠٠٠"), "malformed"],
    ["below the minimum", digestWith("999"), "iterations-out-of-range"],
    ["one iteration", digestWith("1"), "iterations-out-of-range"],
    ["above the maximum", digestWith("2000001"), "iterations-out-of-range"],
    ["absurd count", digestWith("9999999999"), "iterations-out-of-range"],
    ["longer than any count", digestWith("99999999999999999999"), "malformed"],
    ["empty salt", digestWith("390000", ""), "malformed"],
    ["salt with a space", digestWith("390000", "sea salt"), "malformed"],
    ["salt with a tab", digestWith("390000", "sea\tsalt"), "malformed"],
    ["salt with non-ASCII", digestWith("390000", "séasalt"), "malformed"],
    ["salt of 129 characters", digestWith("390000", "s".repeat(129)), "malformed"],
    ["empty hash", digestWith("390000", SALT, ""), "malformed"],
    ["hash without padding", digestWith("390000", SALT, HASH.slice(0, -1)), "malformed"],
    ["hash in URL-safe base64", digestWith("390000", SALT, HASH.replace("+", "-")), "malformed"],
    ["hash with a bad character", digestWith("390000", SALT, `*${HASH.slice(1)}`), "malformed"],
    ["hash of 31 bytes", digestWith("390000", SALT, `${HASH.slice(0, 40)}Yw==`), "malformed"],
    ["hash of 33 bytes", digestWith("390000", SALT, `${HASH.slice(0, 43)}AA`), "malformed"],
    ["hash with stray bits", digestWith("390000", SALT, HASH.replace("7c=", "7d=")), "malformed"],
    ["hash with trailing newline", `${digestWith("390000")}\n`, "malformed"],
  ];

  it.each(refusals)("refuses %s", (_name, digest, reason) => {
    expect(parsePasswordDigest(digest)).toEqual({ ok: false, reason });
  });

  it.each(refusals)("verifies %s as false without throwing", async (_name, digest) => {
    await expect(verifyPassword("lètmein", digest, { iterations: 1000 })).resolves.toEqual({
      valid: false,
      needsRehash: false,
    });
  });
});

describe("formatPasswordDigest", () => {
  const hash = new Uint8Array(32);

  it("writes what parsing reads back", () => {
    const digest = formatPasswordDigest({ iterations: 100000, salt: "abc-_XYZ09", hash });
    expect(digest).toBe(
      "pbkdf2_sha256$100000$abc-_XYZ09$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    );
    expect(parsePasswordDigest(digest)).toEqual({
      ok: true,
      value: { iterations: 100000, salt: "abc-_XYZ09", hash },
    });
  });

  it.each([
    ["an empty salt", { iterations: 100000, salt: "", hash }],
    ["a salt with $", { iterations: 100000, salt: "a$b", hash }],
    ["a 31-byte hash", { iterations: 100000, salt: "salt", hash: new Uint8Array(31) }],
    ["an iteration count out of range", { iterations: 999, salt: "salt", hash }],
  ])("refuses %s", (_name, digest) => {
    expect(() => formatPasswordDigest(digest)).toThrow(RangeError);
  });
});
