import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testProjects } from "../vitest.workspace.ts";
import { SLOWEST_FILES } from "./support/slowest-first-sequencer.ts";

describe("the slowest files the run starts first", () => {
  it("name test files that exist, each in a project that runs it", () => {
    const projects = new Set(testProjects.map((project) => project.test.name));
    const missing = SLOWEST_FILES.filter((entry) => {
      const [project = "", path = ""] = entry.split(" ");
      return (
        !projects.has(project) || !existsSync(fileURLToPath(new URL(`../${path}`, import.meta.url)))
      );
    });
    expect(missing).toEqual([]);
  });

  it("list each file once", () => {
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});
