import { describe, expect, it } from "vitest";
import {
  checkCrossSiteRequest,
  crossSiteRefusal,
  crossSiteRefusalPage,
  isAllowedOrigin,
  parseAllowedOrigins,
} from "../src/index.js";

function request(method: string, headers: Record<string, string> = {}) {
  return new Request("https://app.example/posts", { method, headers });
}

const ALLOWED = parseAllowedOrigins("https://frontend.example, http://localhost:5173/");

describe("parseAllowedOrigins", () => {
  it("splits on commas, trims, drops a trailing / and empty entries", () => {
    expect(parseAllowedOrigins(" https://a.example/ ,http://localhost:3000,, ")).toEqual([
      "https://a.example",
      "http://localhost:3000",
    ]);
  });

  it("lower-cases entries and ignores null", () => {
    expect(parseAllowedOrigins("HTTPS://App.Example, null, NULL")).toEqual(["https://app.example"]);
  });

  it("gives no origins for an unset or empty value", () => {
    expect(parseAllowedOrigins(undefined)).toEqual([]);
    expect(parseAllowedOrigins(null)).toEqual([]);
    expect(parseAllowedOrigins("")).toEqual([]);
    expect(parseAllowedOrigins(" , ")).toEqual([]);
  });
});

describe("isAllowedOrigin", () => {
  it("matches exactly, without regard to case or a trailing slash in the list", () => {
    expect(isAllowedOrigin("https://frontend.example", ALLOWED)).toBe(true);
    expect(isAllowedOrigin("http://localhost:5173", ["http://localhost:5173/"])).toBe(true);
    expect(isAllowedOrigin("https://frontend.example.evil", ALLOWED)).toBe(false);
    expect(isAllowedOrigin("https://evil-frontend.example", ALLOWED)).toBe(false);
    expect(isAllowedOrigin("http://frontend.example", ALLOWED)).toBe(false);
    expect(isAllowedOrigin("https://frontend.example:8443", ALLOWED)).toBe(false);
  });

  it("never allows null or an empty origin, even when listed", () => {
    expect(isAllowedOrigin("null", ["null"])).toBe(false);
    expect(isAllowedOrigin("", [""])).toBe(false);
    expect(isAllowedOrigin(null, ALLOWED)).toBe(false);
  });
});

describe("checkCrossSiteRequest", () => {
  const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

  it.each(["GET", "HEAD", "OPTIONS", "get"])("lets %s through even cross-site", (method) => {
    expect(checkCrossSiteRequest(request(method, crossSite))).toEqual({
      ok: true,
      value: "safe-method",
    });
  });

  it("checks a WebSocket upgrade like an unsafe request", () => {
    const upgrade = { ...crossSite, upgrade: "websocket", connection: "Upgrade" };
    expect(checkCrossSiteRequest(request("GET", upgrade))).toEqual({
      ok: false,
      reason: "cross-site-fetch",
    });
    expect(
      checkCrossSiteRequest(request("GET", { ...upgrade, "sec-fetch-site": "same-origin" })),
    ).toEqual({ ok: true, value: "same-origin-fetch" });
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "PROPFIND"])("refuses a cross-site %s", (method) => {
    expect(checkCrossSiteRequest(request(method, crossSite))).toEqual({
      ok: false,
      reason: "cross-site-fetch",
    });
  });

  it.each(["same-origin", "none", "Same-Origin"])("lets Sec-Fetch-Site: %s through", (site) => {
    expect(
      checkCrossSiteRequest(request("POST", { "sec-fetch-site": site, origin: "https://evil" })),
    ).toEqual({ ok: true, value: "same-origin-fetch" });
  });

  it.each(["same-site", "cross-site", "garbage"])("refuses Sec-Fetch-Site: %s", (site) => {
    expect(checkCrossSiteRequest(request("POST", { "sec-fetch-site": site }))).toEqual({
      ok: false,
      reason: "cross-site-fetch",
    });
  });

  it("lets a listed origin through whatever Sec-Fetch-Site says", () => {
    const fromFrontend = { origin: "https://frontend.example", "sec-fetch-site": "cross-site" };
    expect(
      checkCrossSiteRequest(request("POST", fromFrontend), { allowedOrigins: ALLOWED }),
    ).toEqual({ ok: true, value: "allowed-origin" });
    expect(checkCrossSiteRequest(request("POST", fromFrontend))).toEqual({
      ok: false,
      reason: "cross-site-fetch",
    });
  });

  it("lets requests without Origin or Sec-Fetch-Site through: curl, servers, webhook senders", () => {
    expect(checkCrossSiteRequest(request("POST"))).toEqual({
      ok: true,
      value: "not-from-a-browser",
    });
    expect(checkCrossSiteRequest(request("POST", { origin: "" }))).toEqual({
      ok: true,
      value: "not-from-a-browser",
    });
  });

  describe("older browsers (Origin without Sec-Fetch-Site)", () => {
    it("pass when the Origin's host is the Host", () => {
      const sameHost = { origin: "https://app.example", host: "app.example" };
      expect(checkCrossSiteRequest(request("POST", sameHost))).toEqual({
        ok: true,
        value: "origin-matches-host",
      });
      const withPort = { origin: "http://localhost:3000", host: "localhost:3000" };
      expect(checkCrossSiteRequest(request("POST", withPort))).toEqual({
        ok: true,
        value: "origin-matches-host",
      });
    });

    it("compare with the URL's host when the runtime hides the Host header", () => {
      expect(checkCrossSiteRequest(request("POST", { origin: "https://app.example" }))).toEqual({
        ok: true,
        value: "origin-matches-host",
      });
      expect(checkCrossSiteRequest(request("POST", { origin: "https://evil.example" }))).toEqual({
        ok: false,
        reason: "origin-mismatch",
      });
    });

    it.each([
      ["another host", "https://evil.example"],
      ["another port", "https://app.example:8443"],
      ["a suffix", "https://app.example.evil"],
      ["null", "null"],
      ["garbage", "not a url"],
    ])("are refused for %s", (_name, origin) => {
      expect(checkCrossSiteRequest(request("POST", { origin, host: "app.example" }))).toEqual({
        ok: false,
        reason: "origin-mismatch",
      });
    });
  });
});

describe("crossSiteRefusal", () => {
  it("is a 403 that names ALLOWED_ORIGINS", async () => {
    const response = crossSiteRefusal();
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        code: "cross_site_request",
        message: "Cross-site request refused: add this origin to ALLOWED_ORIGINS to allow it.",
        status: 403,
      },
    });
  });
});

describe("crossSiteRefusalPage", () => {
  it("is a 403 page, a whole document that names ALLOWED_ORIGINS", async () => {
    const response = crossSiteRefusalPage();
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>[\s\S]*<\/html>$/);
    expect(html).toContain(
      "<p>Cross-site request refused: add this origin to ALLOWED_ORIGINS to allow it.</p>",
    );
  });
});
