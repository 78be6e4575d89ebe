// `npm start` runs the app with a loader under which graphql-jit compiles GraphQL operations.
// Under tsx's own command, graphql-jit (CommonJS) got a second copy of graphql, every operation
// with an argument failed to compile, and GraphQL ran through graphql-js at 3x the JSON cost.
import { describe, expect, it } from "vitest";
import { runLikeNpmStart } from "./support/start-command.js";

describe("npm start's loader", () => {
  it("lets graphql-jit compile an operation with an argument", () => {
    const probe = runLikeNpmStart("test/fixtures/graphql-jit-probe.ts");
    expect(probe.stderr).toBe("");
    expect(probe.stdout).toBe("compiled\n");
  });
});
