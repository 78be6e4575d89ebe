import { describe, expect, it } from "vitest";
import { htmlPage, newCspNonce, pagePolicy, withPageHeaders } from "../src/index.js";

describe("newCspNonce", () => {
  it("makes 43 characters of URL-safe base64 that a page's policy takes as they are", () => {
    const nonce = newCspNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pagePolicy(nonce)).toContain(`script-src 'nonce-${nonce}'`);
    const page = withPageHeaders(htmlPage(200, "<p>hi</p>"), nonce);
    expect(page.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
  });

  it("makes a different nonce each time, every character of the alphabet about as often", () => {
    const nonces = Array.from({ length: 2_000 }, () => newCspNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    const counts = new Map<string, number>();
    for (const character of nonces.join("")) {
      counts.set(character, (counts.get(character) ?? 0) + 1);
    }
    // 86 000 characters over 64 symbols: about 1 344 each, give or take 37 (one standard
    // deviation); a symbol 20% off would be over 7 deviations out.
    const expected = (2_000 * 43) / 64;
    expect(counts.size).toBe(64);
    for (const count of counts.values()) {
      expect(Math.abs(count - expected) / expected).toBeLessThan(0.2);
    }
  });
});
