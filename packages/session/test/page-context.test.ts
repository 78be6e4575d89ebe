// The one way a page's context is made from its request: the signed-in address, the flashes
// (taken, so a second page does not show them again), the nonce and the language.
import { describe, expect, it } from "vitest";
import { ACTING_OPERATOR_VALUE, sessionPageContext } from "../src/index.js";

describe("sessionPageContext", () => {
  it("takes the waiting flashes once, with the nonce, the language and who is signed in", () => {
    let waiting = [{ kind: "notice" as const, message: "Saved." }];
    const session = {
      takeFlashes: () => {
        const taken = waiting;
        waiting = [];
        return taken;
      },
      get: (_name: string): string | undefined => undefined,
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

  it("says an operator acts as the signed-in user while the session holds their mark", () => {
    const values = new Map([[ACTING_OPERATOR_VALUE, "1~abc~abc~password"]]);
    const session = { takeFlashes: () => [], get: (name: string) => values.get(name) };
    const signedIn = sessionPageContext({ session, cspNonce: "n" }, "ada@example.com");
    expect(signedIn.impersonating).toBe(true);
    // Nobody signed in: nothing to say, whatever the session holds.
    expect(sessionPageContext({ session, cspNonce: "n" }, undefined).impersonating).toBeUndefined();
    values.clear();
    expect(sessionPageContext({ session, cspNonce: "n" }, "ada@example.com")).toEqual({
      signedInEmail: "ada@example.com",
      flashes: [],
      cspNonce: "n",
    });
  });
});
