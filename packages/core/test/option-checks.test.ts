import { describe, expect, it } from "vitest";
import { configurationError, requireFunctionOption, requireObjectOption } from "../src/index.js";

describe("configurationError", () => {
  it("names the function, the option, the problem and what to pass", () => {
    const error = configurationError("webhookRoute", "verify", "is missing", "pass a verifier");
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("webhookRoute: `verify` is missing: pass a verifier");
  });
});

describe("requireFunctionOption", () => {
  it("passes a function and refuses a missing or other value", () => {
    expect(() => requireFunctionOption("f", { effect: () => {} }, "effect", "x")).not.toThrow();
    expect(() => requireFunctionOption("f", {}, "effect", "pass one")).toThrow(
      new TypeError("f: `effect` is missing: pass one"),
    );
    expect(() => requireFunctionOption("f", { effect: "run" }, "effect", "pass one")).toThrow(
      new TypeError("f: `effect` is not a function: pass one"),
    );
    expect(() => requireFunctionOption("f", undefined, "effect", "pass one")).toThrow(TypeError);
  });
});

describe("requireObjectOption", () => {
  it("passes an object with every method, and names the first one missing", () => {
    const store = { claim: () => {}, markProcessed: () => {} };
    expect(() => requireObjectOption("f", { store }, "store", ["claim"], "x")).not.toThrow();
    expect(() =>
      requireObjectOption("f", { store }, "store", ["claim", "markFailed"], "pass a store"),
    ).toThrow(new TypeError("f: `store` has no `markFailed` method: pass a store"));
    expect(() => requireObjectOption("f", { store: null }, "store", [], "pass a store")).toThrow(
      new TypeError("f: `store` is missing: pass a store"),
    );
  });
});
