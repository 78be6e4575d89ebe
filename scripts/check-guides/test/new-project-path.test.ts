import { describe, expect, it } from "vitest";
import { nextSteps } from "../new-project-path.js";

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
