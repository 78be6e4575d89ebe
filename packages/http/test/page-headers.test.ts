import { describe, expect, it } from "vitest";
import {
  DEFAULT_PAGE_POLICY,
  htmlPage,
  NONCE_SOURCE,
  pagePolicy,
  seeOther,
  withPageHeaders,
} from "../src/index.js";

const NONCE = "bm9uY2Utb2YtdGhpcy1wYWdl";

/** The policy's directives by name, each with its sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? "").split(";").map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe("withPageHeaders on an HTML page", () => {
  it("sends a policy with the nonce and no inline scripts, no framing, and the page headers", () => {
    const page = withPageHeaders(htmlPage(200, "<p>hi</p>"), NONCE);
    const policy = directives(page.headers.get("content-security-policy"));
    expect(policy["script-src"]).toEqual([`'nonce-${NONCE}'`]);
    expect(policy["style-src"]).toEqual(["'self'", `'nonce-${NONCE}'`]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'none'"]);
    expect(page.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    expect(Object.fromEntries(page.headers)).toMatchObject({
      "permissions-policy": expect.stringContaining("camera=()"),
      "cross-origin-opener-policy": "same-origin",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    });
  });

  it("calls a nonce function only for a page that needs one", () => {
    let made = 0;
    const nonce = () => {
      made += 1;
      return NONCE;
    };
    withPageHeaders(Response.json({ ok: true }), nonce);
    withPageHeaders(htmlPage(200, "", { "Content-Security-Policy": "default-src 'self'" }), nonce);
    expect(made).toBe(0);
    const page = withPageHeaders(htmlPage(200, ""), nonce);
    expect(made).toBe(1);
    expect(page.headers.get("content-security-policy")).toContain(`'nonce-${NONCE}'`);
  });

  it("keeps the headers its handler set, and still adds the others", () => {
    const tokenPage = htmlPage(200, "<p>token</p>", {
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": "default-src 'none'",
    });
    const page = withPageHeaders(tokenPage, NONCE);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });

  it("adds sources to a directive, replaces 'none', and adds a directive", () => {
    const policy = directives(
      pagePolicy(NONCE, {
        extendPolicy: {
          "img-src": ["https://images.example", "'self'"],
          "frame-ancestors": ["https://partner.example"],
          "connect-src": ["'self'", "https://api.example"],
        },
      }),
    );
    expect(policy["img-src"]).toEqual([
      ...DEFAULT_PAGE_POLICY["img-src"]!,
      "https://images.example",
    ]);
    expect(policy["frame-ancestors"]).toEqual(["https://partner.example"]);
    expect(policy["connect-src"]).toEqual(["'self'", "https://api.example"]);
    expect(policy["script-src"]).toEqual([`'nonce-${NONCE}'`]);
  });

  it("replaces the whole policy, the nonce where the new one names it, and other headers", () => {
    const page = withPageHeaders(htmlPage(200, ""), NONCE, {
      policy: { "default-src": ["'self'"], "script-src": ["'self'", NONCE_SOURCE] },
      headers: { "Permissions-Policy": "camera=(self)", "X-Frame-Options": "SAMEORIGIN" },
    });
    expect(page.headers.get("content-security-policy")).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${NONCE}'`,
    );
    expect(page.headers.get("permissions-policy")).toBe("camera=(self)");
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("refuses a nonce that would break out of the header", () => {
    expect(() => withPageHeaders(htmlPage(200, ""), "x'; script-src *")).toThrow(TypeError);
    expect(() => pagePolicy("a b")).toThrow("a CSP nonce must be base64 text");
  });
});

describe("withPageHeaders on other answers", () => {
  it("gives JSON, redirects and files the three headers and no page policy", () => {
    for (const response of [
      Response.json({ ok: true }),
      seeOther("/login"),
      new Response("%PDF", { headers: { "Content-Type": "application/pdf" } }),
    ]) {
      const secured = withPageHeaders(response, NONCE);
      expect(Object.fromEntries(secured.headers)).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "SAMEORIGIN",
        "referrer-policy": "strict-origin-when-cross-origin",
      });
      expect(secured.headers.has("content-security-policy")).toBe(false);
      expect(secured.headers.has("cross-origin-opener-policy")).toBe(false);
    }
  });

  it("copies an answer whose headers are immutable", () => {
    const redirect = Response.redirect("https://app.example/login", 303);
    const secured = withPageHeaders(redirect, NONCE);
    expect(secured).not.toBe(redirect);
    expect(secured.headers.get("location")).toBe("https://app.example/login");
    expect(secured.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
