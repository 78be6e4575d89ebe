import { describe, expect, it } from "vitest";
import { dryRunTable } from "../dry-run-table.js";

describe("dryRunTable", () => {
  it("lines up package, version, published and imported, then says why each failure failed", () => {
    const table = dryRunTable([
      { name: "@tessera/core", version: "0.2.0", published: true, imported: true },
      {
        name: "@tessera/sql",
        version: "0.1.1",
        published: true,
        imported: false,
        failure: "@tessera/sql: Error: boom",
      },
      {
        name: "@tessera/x",
        version: "1.0.0",
        published: false,
        imported: undefined,
        failure: "not in the registry after the release",
      },
    ]);
    expect(table.split("\n")).toEqual([
      "package        version  published  imported",
      "@tessera/core  0.2.0    yes        yes",
      "@tessera/sql   0.1.1    yes        no",
      "@tessera/x     1.0.0    no         -",
      "",
      "@tessera/sql@0.1.1: @tessera/sql: Error: boom",
      "@tessera/x@1.0.0: not in the registry after the release",
    ]);
  });
});
