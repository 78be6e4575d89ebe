import { describe, expect, it } from "vitest";
import { decodeBase64url } from "../src/base64.js";
import { randomBytes, randomToken } from "../src/random.js";

describe("randomToken", () => {
  it("is 43 URL-safe characters carrying 256 bits", () => {
    for (let i = 0; i < 200; i++) {
      const token = randomToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(decodeBase64url(token)).toHaveLength(32);
    }
  });

  it("does not repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, randomToken));
    expect(tokens.size).toBe(1000);
  });
});

describe("randomBytes", () => {
  it("fills buffers larger than one getRandomValues call allows", () => {
    const bytes = randomBytes(70_000);
    expect(bytes).toHaveLength(70_000);
    // The tail beyond 65536 bytes is filled too: 4464 zero bytes by chance is impossible.
    expect(bytes.subarray(65_536).some((byte) => byte !== 0)).toBe(true);
  });

  it("hands out small requests from a pool: each byte once, across refills, each a copy", () => {
    // 12 bytes at a time through several 4 KiB refills: no two nonces alike.
    const nonces = Array.from({ length: 2_000 }, () => randomBytes(12));
    expect(new Set(nonces.map((nonce) => nonce.join(","))).size).toBe(2_000);
    expect(nonces.every((nonce) => nonce.length === 12)).toBe(true);
    // Changing one's bytes changes nothing handed out later.
    const first = randomBytes(64);
    first.fill(0);
    expect(randomBytes(64).every((byte) => byte === 0)).toBe(false);
    expect(randomBytes(0)).toHaveLength(0);
  });
});
