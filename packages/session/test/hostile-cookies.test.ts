import { decodeBase64url, deriveKeyRing, encodeBase64url, sealPayload } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { MAXIMUM_SESSION_VALUES, SESSION_KEY_LABEL } from "../src/index.js";
import {
  browserRequest,
  COOKIE_NAME,
  cookiePair,
  sealWithSessionKey,
  T0,
  testSessions,
} from "./fixtures.js";

const { sessions } = testSessions();
const EXPIRE = `${COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax`;

async function validValue(): Promise<string> {
  const session = await sessions.read(browserRequest());
  session.signIn(7);
  session.flash("notice", "Signed in.");
  return cookiePair((await sessions.setCookie(session))!).slice(COOKIE_NAME.length + 1);
}

/** Reads a cookie value and checks it means "no session", and that the cookie is deleted. */
async function expectNoSession(value: string) {
  const session = await sessions.read(
    browserRequest("http://app.test/", `${COOKIE_NAME}=${value}`),
  );
  expect(session.userId).toBeUndefined();
  expect(session.takeFlashes()).toEqual([]);
  expect(await sessions.setCookie(session)).toBe(EXPIRE);
}

const validPayload = {
  v: 1,
  user: { id: 7, expiresAt: T0 + 1_000_000, rememberMe: false },
};

describe("hostile cookies mean no session, never a throw", () => {
  it("the untouched value does open (so the refusals below are meaningful)", async () => {
    const value = await validValue();
    const session = await sessions.read(
      browserRequest("http://app.test/", `${COOKIE_NAME}=${value}`),
    );
    expect(session.userId).toBe(7);
    const sealedHandMade = await sealWithSessionKey(JSON.stringify(validPayload));
    const handMade = await sessions.read(
      browserRequest("http://app.test/", `${COOKIE_NAME}=${sealedHandMade}`),
    );
    expect(handMade.userId).toBe(7);
  });

  it("tampered: every byte flipped, one at a time", async () => {
    const bytes = decodeBase64url(await validValue());
    for (let index = 0; index < bytes.length; index++) {
      const tampered = bytes.slice();
      tampered[index]! ^= 0x01;
      await expectNoSession(encodeBase64url(tampered));
    }
  });

  it("truncated at every length", async () => {
    const value = await validValue();
    for (let length = 0; length < value.length; length++) {
      await expectNoSession(value.slice(0, length));
    }
  });

  it("sealed under another key, or for another cookie name", async () => {
    const json = JSON.stringify(validPayload);
    const foreignKey = deriveKeyRing({ current: "f".repeat(40) }, SESSION_KEY_LABEL).current;
    await expectNoSession(await sealPayload(foreignKey, json, COOKIE_NAME));
    const otherPurpose = deriveKeyRing({ current: "s".repeat(40) }, "tessera jwt hs256").current;
    await expectNoSession(await sealPayload(otherPurpose, json, COOKIE_NAME));
    await expectNoSession(await sealWithSessionKey(json, "_other_session"));
    await expectNoSession(await sealWithSessionKey(json, ""));
  });

  it("another app's cookie of the same secret is not ours", async () => {
    const value = await validValue();
    const shop = testSessions({ appName: "shop" }).sessions;
    const session = await shop.read(browserRequest("http://app.test/", `_shop_session=${value}`));
    expect(session.userId).toBeUndefined();
  });

  it.each([
    ["empty", ""],
    ["text", "hello"],
    ["padding", "===="],
    ["non-base64url", "a+b/c"],
    ["json", '{"v":1}'],
    ["spaces", "a b c"],
    ["unicode", "ünïcødé"],
    ["version byte only", encodeBase64url(new Uint8Array([1]))],
    ["zero bytes", encodeBase64url(new Uint8Array(64))],
    ["10 KB of letters", "A".repeat(10_240)],
  ])("garbage: %s", async (_name, value) => {
    await expectNoSession(value);
  });

  it("a 10 KB value made of a real cookie repeated", async () => {
    const value = await validValue();
    await expectNoSession(value.repeat(Math.ceil(10_240 / value.length)));
  });

  const far = T0 + 1_000_000;
  it.each([
    ["not JSON", "not json"],
    ["JSON null", "null"],
    ["an array", "[]"],
    ["a number", "7"],
    ["a string", '"7"'],
    ["no version", JSON.stringify({ user: validPayload.user })],
    ["version 2", JSON.stringify({ ...validPayload, v: 2 })],
    ["version as text", JSON.stringify({ ...validPayload, v: "1" })],
    ["an unknown key", JSON.stringify({ ...validPayload, admin: true })],
    ["the old user_id shape", JSON.stringify({ user_id: 7, expires_at: far })],
    [
      "user id as text",
      JSON.stringify({ v: 1, user: { id: "7", expiresAt: far, rememberMe: false } }),
    ],
    ["user id zero", JSON.stringify({ v: 1, user: { id: 0, expiresAt: far, rememberMe: false } })],
    [
      "user id negative",
      JSON.stringify({ v: 1, user: { id: -7, expiresAt: far, rememberMe: false } }),
    ],
    [
      "user id fraction",
      JSON.stringify({ v: 1, user: { id: 7.5, expiresAt: far, rememberMe: false } }),
    ],
    [
      "user id unsafe",
      JSON.stringify({ v: 1, user: { id: 2 ** 53, expiresAt: far, rememberMe: false } }),
    ],
    ["expiry missing", JSON.stringify({ v: 1, user: { id: 7, rememberMe: false } })],
    [
      "expiry as text",
      JSON.stringify({ v: 1, user: { id: 7, expiresAt: String(far), rememberMe: false } }),
    ],
    ["expiry huge", `{"v":1,"user":{"id":7,"expiresAt":1e400,"rememberMe":false}}`],
    ["remember me as 1", JSON.stringify({ v: 1, user: { id: 7, expiresAt: far, rememberMe: 1 } })],
    ["extra user key", JSON.stringify({ v: 1, user: { ...validPayload.user, admin: true } })],
    ["user as array", JSON.stringify({ v: 1, user: [7, far, false] })],
    ["user null", JSON.stringify({ v: 1, user: null })],
    [
      "flash kind unknown",
      JSON.stringify({ ...validPayload, flashes: [{ kind: "error", message: "x" }] }),
    ],
    [
      "flash message not text",
      JSON.stringify({ ...validPayload, flashes: [{ kind: "notice", message: 1 }] }),
    ],
    [
      "flash message too long",
      JSON.stringify({ ...validPayload, flashes: [{ kind: "notice", message: "x".repeat(257) }] }),
    ],
    ["flashes empty", JSON.stringify({ ...validPayload, flashes: [] })],
    [
      "too many flashes",
      JSON.stringify({
        ...validPayload,
        flashes: new Array(4).fill({ kind: "notice", message: "x" }),
      }),
    ],
    [
      "flashes as object",
      JSON.stringify({ ...validPayload, flashes: { kind: "notice", message: "x" } }),
    ],
    ["page off site", JSON.stringify({ ...validPayload, page: "//evil.example" })],
    ["page absolute", JSON.stringify({ ...validPayload, page: "https://evil.example/" })],
    ["page backslash", JSON.stringify({ ...validPayload, page: "/\\evil" })],
    ["page too long", JSON.stringify({ ...validPayload, page: `/${"a".repeat(512)}` })],
    ["page not text", JSON.stringify({ ...validPayload, page: ["/"] })],
    ["values empty", JSON.stringify({ ...validPayload, values: {} })],
    ["value name invalid", JSON.stringify({ ...validPayload, values: { "Bad-Name": "x" } })],
    ["value name __proto__", `{"v":1,"values":{"__proto__":"x"}}`],
    ["value not text", JSON.stringify({ ...validPayload, values: { state: 1 } })],
    ["value with a space", JSON.stringify({ ...validPayload, values: { state: "a b" } })],
    [
      "too many values",
      JSON.stringify({
        ...validPayload,
        values: Object.fromEntries(
          Array.from({ length: MAXIMUM_SESSION_VALUES + 1 }, (_, index) => [`v${index}`, "1"]),
        ),
      }),
    ],
  ])("JSON of the wrong shape sealed with the right key: %s", async (_name, json) => {
    await expectNoSession(await sealWithSessionKey(json));
  });

  it("bytes that are not UTF-8, sealed with the right key", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(validPayload));
    const broken = new Uint8Array([...bytes.slice(0, 10), 0xff, ...bytes.slice(10)]);
    await expectNoSession(await sealWithSessionKey(broken));
  });
});
