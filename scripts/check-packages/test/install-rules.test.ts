import { describe, expect, it } from "vitest";
import { installContentFindings } from "../install-rules.js";

const footprint = (packages: string[]) => ({ packages, bytes: 1 });

describe("installContentFindings", () => {
  it("refuses a sanitizer in a bearer install", () => {
    expect(
      installContentFindings(
        "@tessera/bearer",
        footprint(["@tessera/bearer", "@tessera/core", "jose", "sanitize-html"]),
      ),
    ).toEqual([
      {
        packageName: "@tessera/bearer",
        check: "install-contents",
        detail: "installing it alone brings sanitize-html",
      },
    ]);
    expect(
      installContentFindings("@tessera/bearer", footprint(["@tessera/bearer", "jose"])),
    ).toEqual([]);
  });

  it("refuses the parser of @tessera/sanitizer in a bearer install", () => {
    expect(
      installContentFindings(
        "@tessera/bearer",
        footprint(["@tessera/bearer", "@tessera/fields", "htmlparser2", "jose"]),
      ).map((finding) => finding.detail),
    ).toEqual(["installing it alone brings htmlparser2"]);
  });

  it("refuses the sanitizer and its parser in a fields or an accounts install", () => {
    for (const name of ["@tessera/fields", "@tessera/accounts"]) {
      expect(
        installContentFindings(
          name,
          footprint([name, "@tessera/core", "@tessera/sanitizer", "htmlparser2"]),
        ).map((finding) => finding.detail),
      ).toEqual([
        "installing it alone brings @tessera/sanitizer",
        "installing it alone brings htmlparser2",
      ]);
      expect(installContentFindings(name, footprint([name, "@tessera/core"]))).toEqual([]);
    }
  });

  it("lets webhooks bring only core, crypto and http of the Tessera packages, not sql", () => {
    const findings = installContentFindings(
      "@tessera/webhooks",
      footprint([
        "@noble/hashes",
        "@tessera/core",
        "@tessera/crypto",
        "@tessera/signer",
        "@tessera/sql",
        "@tessera/webhooks",
      ]),
    );
    expect(findings.map((finding) => finding.detail)).toEqual([
      "installing it alone brings @tessera/signer",
      "installing it alone brings @tessera/sql",
    ]);
  });

  it("lets core bring nothing but itself", () => {
    expect(installContentFindings("@tessera/core", footprint(["@tessera/core"]))).toEqual([]);
    expect(
      installContentFindings("@tessera/core", footprint(["@tessera/core", "tslib"])).map(
        (finding) => finding.detail,
      ),
    ).toEqual(["installing it alone brings tslib"]);
  });
});
