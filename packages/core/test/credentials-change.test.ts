import { describe, expect, it } from "vitest";
import { signedInBeforeCredentialsChanged } from "../src/credentials-change.js";

describe("signedInBeforeCredentialsChanged", () => {
  it("keeps every sign-in of a user whose credentials never changed", () => {
    expect(signedInBeforeCredentialsChanged(0, null)).toBe(false);
    expect(signedInBeforeCredentialsChanged(0, undefined)).toBe(false);
  });

  it("ends a sign-in made in an earlier second than the change", () => {
    expect(signedInBeforeCredentialsChanged(9_999, 10_000)).toBe(true);
    expect(signedInBeforeCredentialsChanged(1_000, 10_500)).toBe(true);
  });

  it("keeps a sign-in made in the change's second or later", () => {
    expect(signedInBeforeCredentialsChanged(10_000, 10_999)).toBe(false);
    expect(signedInBeforeCredentialsChanged(10_999, 10_000)).toBe(false);
    expect(signedInBeforeCredentialsChanged(11_000, 10_000)).toBe(false);
  });
});
