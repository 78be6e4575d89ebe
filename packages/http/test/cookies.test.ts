import { describe, expect, it } from "vitest";
import { expireCookie, parseCookies, serializeCookie } from "../src/index.js";

describe("parseCookies", () => {
  it("reads name=value pairs separated by semicolons", () => {
    expect(parseCookies("_app_session=abc-_123; theme=dark;lang=en")).toEqual(
      new Map([
        ["_app_session", "abc-_123"],
        ["theme", "dark"],
        ["lang", "en"],
      ]),
    );
  });

  it("keeps the first value of a repeated name", () => {
    expect(parseCookies("id=first; id=second").get("id")).toBe("first");
  });

  it("trims spaces, strips one pair of quotes and keeps = inside values", () => {
    const cookies = parseCookies('  a =  1 ; b="quoted value"; c=x=y==; d=""');
    expect(cookies.get("a")).toBe("1");
    expect(cookies.get("b")).toBe("quoted value");
    expect(cookies.get("c")).toBe("x=y==");
    expect(cookies.get("d")).toBe("");
  });

  it("does not percent-decode", () => {
    expect(parseCookies("a=%41%zz").get("a")).toBe("%41%zz");
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["empty", ""],
    ["only separators", ";;; ;"],
    ["no equals sign", "justtext"],
    ["empty name", "=value; =; ==="],
  ])("gives an empty map for %s", (_name, header) => {
    expect(parseCookies(header).size).toBe(0);
  });

  it("skips garbage pairs and keeps the good ones", () => {
    const cookies = parseCookies('garbage; =x; "; ok=1; \u0000=\u0001; ünï=cödé');
    expect(cookies.get("ok")).toBe("1");
    expect(cookies.get("ünï")).toBe("cödé");
    expect(cookies.has("garbage")).toBe(false);
  });

  it("keeps __proto__ and constructor as plain names, without touching any prototype", () => {
    const cookies = parseCookies("__proto__=polluted; constructor=x; toString=y");
    expect(cookies.get("__proto__")).toBe("polluted");
    expect(cookies.get("constructor")).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(cookies)).toBe(Map.prototype);
    expect(parseCookies("a=1").get("__proto__")).toBeUndefined();
  });
});

describe("serializeCookie", () => {
  it("writes the documented session cookie", () => {
    expect(
      serializeCookie("_app_session", "abc", { httpOnly: true, sameSite: "Lax", path: "/" }),
    ).toBe("_app_session=abc; Path=/; HttpOnly; SameSite=Lax");
  });

  it("writes every attribute in a fixed order", () => {
    expect(
      serializeCookie("id", "v", {
        maxAge: 1209600,
        expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
        domain: "app.example",
        path: "/account",
        secure: true,
        httpOnly: true,
        sameSite: "Strict",
      }),
    ).toBe(
      "id=v; Max-Age=1209600; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Domain=app.example; Path=/account; Secure; HttpOnly; SameSite=Strict",
    );
  });

  it("writes no attributes when none are given, and an empty value", () => {
    expect(serializeCookie("a", "")).toBe("a=");
  });

  it("allows SameSite=None only with Secure", () => {
    expect(serializeCookie("a", "1", { sameSite: "None", secure: true })).toBe(
      "a=1; Secure; SameSite=None",
    );
    expect(() => serializeCookie("a", "1", { sameSite: "None" })).toThrow(
      "SameSite=None requires Secure",
    );
  });

  it("enforces the __Secure- and __Host- prefix rules", () => {
    expect(serializeCookie("__Host-id", "1", { secure: true, path: "/" })).toBe(
      "__Host-id=1; Path=/; Secure",
    );
    expect(() => serializeCookie("__Secure-id", "1")).toThrow(TypeError);
    expect(() => serializeCookie("__Host-id", "1", { secure: true })).toThrow(TypeError);
    expect(() =>
      serializeCookie("__Host-id", "1", { secure: true, path: "/", domain: "app.example" }),
    ).toThrow(TypeError);
  });

  it.each([
    ["", "v"],
    ["a b", "v"],
    ["a;b", "v"],
    ["a=b", "v"],
    ["ünï", "v"],
    ["a\u0000", "v"],
    ["a", "has space"],
    ["a", "semi;colon"],
    ["a", "com,ma"],
    ["a", 'quo"te'],
    ["a", "back\\slash"],
    ["a", "new\nline"],
    ["a", "ünïcode"],
  ])("refuses name %j with value %j", (name, value) => {
    expect(() => serializeCookie(name, value)).toThrow(TypeError);
  });

  it.each([
    [{ maxAge: 1.5 }],
    [{ maxAge: Number.NaN }],
    [{ maxAge: Number.POSITIVE_INFINITY }],
    [{ expires: new Date(Number.NaN) }],
    [{ path: "relative" }],
    [{ path: "/a;b" }],
    [{ path: "/a\nb" }],
    [{ domain: "evil.example; Secure" }],
    [{ domain: "" }],
    [{ domain: "a..b" }],
  ])("refuses attributes %j", (attributes) => {
    expect(() => serializeCookie("a", "1", attributes)).toThrow(TypeError);
  });
});

describe("expireCookie", () => {
  it("deletes with Max-Age=0 and an Expires in the past, on the given path", () => {
    expect(expireCookie("_app_session", { path: "/", httpOnly: true, sameSite: "Lax" })).toBe(
      "_app_session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax",
    );
  });
});
