import { describe, expect, it } from "vitest";
import { tokenVerifier } from "../src/index.js";

const token = "k7Jx3q9VbZ0mN2pR5sT8uW1yA4cE6gI9";

describe("tokenVerifier", () => {
  it("reads the `token` query parameter by default, from absolute URLs and Node paths", () => {
    const verify = tokenVerifier({ token });
    for (const url of [
      `https://app.example/webhooks/render/7?token=${token}`,
      `/webhooks/render/7?token=${token}`,
      new URL(`https://app.example/webhooks/render/7?x=1&token=${token}`),
    ]) {
      expect(verify({ headers: {}, body: "{}", url })).toEqual({ ok: true, value: {} });
    }
  });

  it("refuses a wrong, partial, longer or missing token", () => {
    const verify = tokenVerifier({ token });
    const at = (url: string | undefined) => verify({ headers: {}, body: "{}", url });
    expect(at(`/hook?token=${token.slice(0, -1)}X`)).toEqual({
      ok: false,
      reason: "token-mismatch",
    });
    expect(at(`/hook?token=${token.slice(0, 10)}`)).toEqual({
      ok: false,
      reason: "token-mismatch",
    });
    expect(at(`/hook?token=${token}${token}`)).toEqual({ ok: false, reason: "token-mismatch" });
    expect(at("/hook?token=")).toEqual({ ok: false, reason: "missing-token" });
    expect(at("/hook")).toEqual({ ok: false, reason: "missing-token" });
    expect(at(undefined)).toEqual({ ok: false, reason: "missing-token" });
  });

  it("reads a header when told to, and then not the query unless told to as well", () => {
    const headerOnly = tokenVerifier({ token, header: "X-Webhook-Token" });
    expect(headerOnly({ headers: { "x-webhook-token": token }, body: "" }).ok).toBe(true);
    expect(headerOnly({ headers: new Headers({ "X-Webhook-Token": token }), body: "" }).ok).toBe(
      true,
    );
    expect(headerOnly({ headers: {}, body: "", url: `/hook?token=${token}` })).toEqual({
      ok: false,
      reason: "missing-token",
    });
    const either = tokenVerifier({ token, header: "x-webhook-token", query: "t" });
    expect(either({ headers: {}, body: "", url: `/hook?t=${token}` }).ok).toBe(true);
    expect(
      either({ headers: { "x-webhook-token": "wrong" }, body: "", url: `/hook?t=${token}` }),
    ).toEqual({
      ok: false,
      reason: "token-mismatch",
    });
  });

  it("refuses an empty expected token when created", () => {
    expect(() => tokenVerifier({ token: "" })).toThrow(RangeError);
  });
});
