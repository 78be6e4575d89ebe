// The one way a page's context is made from its request: the signed-in address, the flashes
// (taken, so a second page does not show them again), the nonce and the language.
import { describe, expect, it } from "vitest";
import { sessionPageContext } from "../src/index.js";

describe("sessionPageContext", () => {
  it("takes the waiting flashes once, with the nonce, the language and who is signed in", () => {
    let waiting = [{ kind: "notice" as const, message: "Saved." }];
    const session = {
      takeFlashes: () => {
        const taken = waiting;
        waiting = [];
        return taken;
      },
    };
    const locale = { tag: "fr", catalog: {} };
    const request = { session, cspNonce: "n0nce", locale };
    expect(sessionPageContext(request, "ada@example.com")).toEqual({
      signedInEmail: "ada@example.com",
      flashes: [{ kind: "notice", message: "Saved." }],
      cspNonce: "n0nce",
      locale,
    });
    expect(sessionPageContext({ session, cspNonce: "n0nce" }, undefined)).toEqual({
      signedInEmail: undefined,
      flashes: [],
      cspNonce: "n0nce",
    });
  });
});
