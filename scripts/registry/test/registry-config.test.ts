import { describe, expect, it } from "vitest";
import { PUBLIC_REGISTRY, registryConfig } from "../registry-config.js";

describe("registryConfig", () => {
  const config = registryConfig("/tmp/registry");

  it("serves @tessera packages only as published here, never from npm", () => {
    expect(config.packages["@tessera/*"]).toEqual({
      access: "$all",
      publish: "$all",
      unpublish: "$all",
    });
    expect(config.packages["@tessera/*"]).not.toHaveProperty("proxy");
  });

  it("reads every other package through from the public registry, and keeps its store in the folder", () => {
    expect(config.packages["**"]).toMatchObject({ proxy: "npmjs" });
    expect(config.uplinks.npmjs!.url).toBe(PUBLIC_REGISTRY);
    expect(config.storage).toBe("/tmp/registry/storage");
  });
});
