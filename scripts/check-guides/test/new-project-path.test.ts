import { describe, expect, it } from "vitest";
import { nextSteps, readmeSteps } from "../new-project-path.js";

describe("nextSteps", () => {
  it("reads the steps tessera new prints after next:, and nothing after them", () => {
    const printed = [
      "wrote package.json",
      "wrote test/app.test.ts",
      "",
      "next:",
      "  cd my-app",
      "  npm install",
      "  npx tessera generate accounts",
      "  npm start",
      "(with DATABASE_URL set to your PostgreSQL database)",
      "",
    ].join("\n");
    expect(nextSteps(printed)).toEqual([
      "cd my-app",
      "npm install",
      "npx tessera generate accounts",
      "npm start",
    ]);
  });

  it("finds none in output without next:", () => {
    expect(nextSteps("error: `my-app` exists and is not empty\n")).toEqual([]);
  });
});

describe("readmeSteps", () => {
  it("reads the commands of the Start section's sh block, without comments, and no other block", () => {
    const readme = [
      "# my-app",
      "",
      "## Start",
      "",
      "```sh",
      "npm install",
      "npx tessera generate accounts   # the account tables",
      "npm start",
      "```",
      "",
      "## Test",
      "",
      "```sh",
      "npm test",
      "```",
    ].join("\n");
    expect(readmeSteps(readme)).toEqual([
      "npm install",
      "npx tessera generate accounts",
      "npm start",
    ]);
  });

  it("finds none in a README without a Start section", () => {
    expect(readmeSteps("# my-app\n\n```sh\nnpm test\n```\n")).toEqual([]);
  });
});
