// `npm start` runs the app with a loader under which graphql-jit compiles GraphQL operations.
// Under tsx's own command, graphql-jit (CommonJS) got a second copy of graphql, every operation
// with an argument failed to compile, and GraphQL ran through graphql-js at 3x the JSON cost.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const appFolder = fileURLToPath(new URL("..", import.meta.url));

describe("npm start's loader", () => {
  it("lets graphql-jit compile an operation with an argument", () => {
    const { scripts } = JSON.parse(readFileSync(`${appFolder}/package.json`, "utf8"));
    const [command, ...nodeArguments] = (scripts.start as string).split(" ");
    expect(command).toBe("node");
    // The start script's Node arguments, with the probe in place of src/main.ts.
    nodeArguments.splice(-1, 1, "test/fixtures/graphql-jit-probe.ts");
    const probe = spawnSync(process.execPath, nodeArguments, { cwd: appFolder, encoding: "utf8" });
    expect(probe.stderr).toBe("");
    expect(probe.stdout).toBe("compiled\n");
  });
});
