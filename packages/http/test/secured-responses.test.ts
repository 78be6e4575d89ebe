import { describe, expect, it } from "vitest";
import {
  isSecured,
  jsonAnswer,
  jsonError,
  markSecured,
  securedHeaders,
  seeOther,
  withPageHeaders,
  withSecurityHeaders,
} from "../src/index.js";

const SECURITY = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "referrer-policy": "strict-origin-when-cross-origin",
};

describe("jsonAnswer", () => {
  it("answers JSON with the security headers from the start, marked", async () => {
    const answer = jsonAnswer({ a: 1 }, { status: 201 });
    expect(answer.status).toBe(201);
    expect(Object.fromEntries(answer.headers)).toEqual({
      "content-type": "application/json",
      ...SECURITY,
    });
    expect(await answer.json()).toEqual({ a: 1 });
    expect(isSecured(answer)).toBe(true);
  });

  it("lets the caller's headers win, in any spelling, each sent once", () => {
    const answer = jsonAnswer(
      {},
      { headers: { "Content-Type": "application/problem+json", "Referrer-Policy": "no-referrer" } },
    );
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("keeps every Set-Cookie of a Headers", () => {
    const cookies = new Headers();
    cookies.append("Set-Cookie", "a=1");
    cookies.append("Set-Cookie", "b=2");
    const answer = jsonAnswer({}, { headers: cookies });
    expect(answer.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a body with no JSON form, as Response.json does", () => {
    expect(() => jsonAnswer(undefined)).toThrow(TypeError);
  });

  it("makes the error envelope and the redirect", () => {
    for (const answer of [jsonError(418, "teapot"), seeOther("/next")]) {
      expect(isSecured(answer)).toBe(true);
      expect(Object.fromEntries(answer.headers)).toMatchObject(SECURITY);
    }
    expect(seeOther("/next").headers.get("location")).toBe("/next");
  });
});

describe("the header functions on a marked answer", () => {
  // Response.redirect's headers are immutable: editing them would have to copy the response,
  // so getting the same object back shows they were left unread.
  const marked = () => markSecured(Response.redirect("https://app.example/next", 303));

  it("leave it as it is over HTTP", () => {
    const answer = marked();
    expect(withPageHeaders(answer, "bm9uY2U=")).toBe(answer);
    expect(withSecurityHeaders(answer, { https: false })).toBe(answer);
  });

  it("still add HSTS over HTTPS", () => {
    const secured = withSecurityHeaders(marked(), { https: true });
    expect(secured.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("add every header to a copy of a marked answer: the mark stays with the object marked", () => {
    const copy = new Response(null, marked());
    expect(isSecured(copy)).toBe(false);
    expect(withPageHeaders(copy, "bm9uY2U=").headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("keep the mark out of the answer's own names", () => {
    expect(Object.keys(marked())).toEqual([]);
  });

  it("add every header to an answer nobody marked", () => {
    const plain = Response.redirect("https://app.example/next", 303);
    const secured = withPageHeaders(plain, "bm9uY2U=");
    expect(secured).not.toBe(plain);
    expect(Object.fromEntries(secured.headers)).toMatchObject(SECURITY);
  });
});

describe("securedHeaders", () => {
  it("puts the security headers under a plain object's, names in lower case", () => {
    expect(securedHeaders({ Location: "/x" }, { "content-type": "text/plain" })).toEqual({
      ...SECURITY,
      "content-type": "text/plain",
      location: "/x",
    });
  });
});
