import { describe, expect, it } from "vitest";
import { siblingCopies } from "../sibling-copies.js";
import { folderWith } from "./fixture-folders.js";

// Shaped as esbuild writes a bundle: unindented top-level statements, one export clause.
const ENCODING_ERROR = `class EncodingError extends Error {
  constructor(message) {
    super(message);
    this.name = "EncodingError";
  }
};`;

const cryptoBuild = () =>
  folderWith({
    "dist/index.js": `// src/encoding-error.ts\n${ENCODING_ERROR}\nfunction encodeHex(bytes) {\n  return bytes;\n}\nvar MAXIMUM = 1e3;\nexport {\n  EncodingError,\n  MAXIMUM,\n  encodeHex\n};\n`,
  });

describe("siblingCopies", () => {
  it("finds another package's exported definition copied, in the ESM and the CJS build", () => {
    const bearer = folderWith({
      "dist/index.js": `${ENCODING_ERROR}\nfunction authenticate() {\n  return 1;\n}\nexport {\n  authenticate\n};\n`,
      "dist/index.cjs": `"use strict";\n${ENCODING_ERROR}\nmodule.exports = {};\n`,
    });
    const findings = siblingCopies(
      new Map([
        ["@tessera/crypto", cryptoBuild()],
        ["@tessera/bearer", bearer],
      ]),
    );
    expect(findings).toEqual([
      {
        packageName: "@tessera/bearer",
        check: "sibling-copy",
        detail: "dist/index.cjs defines @tessera/crypto's EncodingError with the same code",
      },
      {
        packageName: "@tessera/bearer",
        check: "sibling-copy",
        detail: "dist/index.js defines @tessera/crypto's EncodingError with the same code",
      },
    ]);
  });

  it("leaves imports, private helpers that only share a name, and equal constants alone", () => {
    const jobs = folderWith({
      "dist/index.js": `import { EncodingError } from "@tessera/crypto";\nfunction encodeHex(text) {\n  return text.length;\n}\nvar MAXIMUM = 1e3;\nexport {\n  EncodingError\n};\n`,
    });
    expect(
      siblingCopies(
        new Map([
          ["@tessera/crypto", cryptoBuild()],
          ["@tessera/jobs", jobs],
        ]),
      ),
    ).toEqual([]);
  });
});
