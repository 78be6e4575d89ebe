import { describe, expect, it } from "vitest";
import {
  answerCorsPreflight,
  parseAllowedOrigins,
  withCorsHeaders,
  withSecurityHeaders,
} from "../src/index.js";

const EXPECTED_SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "referrer-policy": "strict-origin-when-cross-origin",
};

describe("withSecurityHeaders", () => {
  it("adds the three headers, and no HSTS over plain HTTP", () => {
    const response = withSecurityHeaders(new Response("hi"), { https: false });
    expect(Object.fromEntries(response.headers)).toMatchObject(EXPECTED_SECURITY_HEADERS);
    expect(response.headers.has("strict-transport-security")).toBe(false);
  });

  it("adds HSTS over HTTPS", () => {
    const response = withSecurityHeaders(new Response("hi"), { https: true });
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("keeps headers the handler set", () => {
    const original = new Response("token page", {
      headers: {
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Strict-Transport-Security": "max-age=60",
      },
    });
    const response = withSecurityHeaders(original, { https: true });
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=60");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("changes a mutable response in place", () => {
    const original = new Response("hi");
    expect(withSecurityHeaders(original, { https: false })).toBe(original);
  });

  it("copies a response whose headers are immutable, keeping status, headers and body", async () => {
    const redirect = Response.redirect("https://app.example/login", 303);
    const response = withSecurityHeaders(redirect, { https: true });
    expect(response).not.toBe(redirect);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://app.example/login");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(redirect.headers.has("x-frame-options")).toBe(false);
  });

  it("passes the body of a copied response on", async () => {
    const upstream = await fetch("data:text/plain,hello%20there");
    const response = withSecurityHeaders(upstream, { https: false });
    expect(response).not.toBe(upstream);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("hello there");
  });
});

const cors = { allowedOrigins: parseAllowedOrigins("https://frontend.example") };

function preflight(origin: string, method = "OPTIONS") {
  return new Request("https://app.example/api/posts", {
    method,
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });
}

describe("answerCorsPreflight", () => {
  it("answers a listed origin's preflight with 204 and the allowing headers", () => {
    const response = answerCorsPreflight(preflight("https://frontend.example"), cors);
    expect(response?.status).toBe(204);
    expect(Object.fromEntries(response!.headers)).toEqual({
      "access-control-allow-origin": "https://frontend.example",
      "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
      "access-control-allow-headers": "Authorization, Content-Type",
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    });
  });

  it("allows credentials and other headers only when asked", () => {
    const response = answerCorsPreflight(preflight("https://frontend.example"), {
      ...cors,
      allowCredentials: true,
      allowedHeaders: ["Content-Type", "X-Requested-With"],
    });
    expect(response?.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response?.headers.get("access-control-allow-headers")).toBe(
      "Content-Type, X-Requested-With",
    );
  });

  it("does not answer an unlisted origin, null, or without ALLOWED_ORIGINS", () => {
    expect(answerCorsPreflight(preflight("https://evil.example"), cors)).toBeUndefined();
    expect(answerCorsPreflight(preflight("null"), cors)).toBeUndefined();
    expect(
      answerCorsPreflight(preflight("https://frontend.example"), { allowedOrigins: [] }),
    ).toBeUndefined();
  });

  it("does not answer what is not a preflight", () => {
    expect(
      answerCorsPreflight(preflight("https://frontend.example", "POST"), cors),
    ).toBeUndefined();
    const plainOptions = new Request("https://app.example/", {
      method: "OPTIONS",
      headers: { origin: "https://frontend.example" },
    });
    expect(answerCorsPreflight(plainOptions, cors)).toBeUndefined();
  });
});

describe("withCorsHeaders", () => {
  const from = (origin?: string) =>
    new Request("https://app.example/api/posts", origin ? { headers: { origin } } : {});

  it("allows a listed origin to read the response, and varies on Origin", () => {
    const response = withCorsHeaders(from("https://frontend.example"), new Response("[]"), cors);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://frontend.example");
    expect(response.headers.has("access-control-allow-credentials")).toBe(false);
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("gives an unlisted origin no CORS header, only Vary", () => {
    const response = withCorsHeaders(from("https://evil.example"), new Response("[]"), cors);
    expect(response.headers.has("access-control-allow-origin")).toBe(false);
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("adds nothing at all without ALLOWED_ORIGINS", () => {
    const response = withCorsHeaders(from("https://frontend.example"), new Response("[]"), {
      allowedOrigins: [],
    });
    expect([...response.headers.keys()]).toEqual(["content-type"]);
  });

  it("extends an existing Vary once", () => {
    const original = new Response("[]", { headers: { Vary: "Accept-Encoding" } });
    const once = withCorsHeaders(from("https://frontend.example"), original, cors);
    const twice = withCorsHeaders(from("https://frontend.example"), once, cors);
    expect(twice.headers.get("vary")).toBe("Accept-Encoding, Origin");
  });

  it("copies a response with immutable headers", () => {
    const redirect = Response.redirect("https://app.example/", 303);
    const response = withCorsHeaders(from("https://frontend.example"), redirect, cors);
    expect(response.status).toBe(303);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://frontend.example");
  });
});
