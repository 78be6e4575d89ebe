import { describe, expect, it } from "vitest";
import { declaredImportFindings } from "../declared-imports.js";
import { folderWith } from "./fixture-folders.js";

describe("declaredImportFindings", () => {
  it("names each undeclared package once, with the files that import it", () => {
    const unpacked = folderWith({
      "dist/index.js": [
        'import { sha256 } from "@noble/hashes/sha2.js";',
        'import { readFile } from "node:fs/promises";',
        'import { ok } from "@tessera/core";',
        'import { helper } from "./chunk-ABC.js";',
        'export * from "@tessera/fields/messages";',
        "// import nothing from 'commented-out'",
      ].join("\n"),
      "dist/index.cjs": 'const h = require("@noble/hashes/hmac.js");\nconst p = require("path");',
      "dist/index.d.ts": 'import type { Model } from "@tessera/records";\nexport {};',
      "dist/index.js.map": '{"sources":["import x from \\"not-code\\""]}',
    });
    const findings = declaredImportFindings(
      {
        name: "@tessera/webhooks",
        version: "0.1.0",
        dependencies: { "@tessera/core": "0.1.0" },
        peerDependencies: { "@tessera/fields": "0.1.0" },
      },
      unpacked,
    );
    expect(findings).toEqual([
      {
        packageName: "@tessera/webhooks",
        check: "undeclared-import",
        detail: "@noble/hashes (in dist/index.cjs, dist/index.js)",
      },
      {
        packageName: "@tessera/webhooks",
        check: "undeclared-import",
        detail: "@tessera/records (in dist/index.d.ts)",
      },
    ]);
  });

  it("names each declared dependency that no file of dist imports", () => {
    const unpacked = folderWith({
      "dist/index.js": 'import { ok } from "@tessera/core";\nexport const x = ok;',
      "dist/index.d.ts": 'import type { Model } from "@tessera/fields";\nexport {};',
    });
    const findings = declaredImportFindings(
      {
        name: "@tessera/webhooks",
        version: "0.1.0",
        dependencies: { "@tessera/core": "0.1.0", "@noble/hashes": "^2.0.0" },
        peerDependencies: { "@tessera/fields": "0.1.0", vitest: "^4.0.0" },
      },
      unpacked,
    );
    // A type-only import in the declarations counts: a user's compiler needs that package.
    expect(findings).toEqual([
      {
        packageName: "@tessera/webhooks",
        check: "unused-dependency",
        detail: "@noble/hashes is declared, and no file of dist/ imports it",
      },
      {
        packageName: "@tessera/webhooks",
        check: "unused-dependency",
        detail: "vitest is declared, and no file of dist/ imports it",
      },
    ]);
  });
});
