import { describe, expect, it } from "vitest";
import { encodeQuotedPrintable } from "../src/quoted-printable.js";

describe("encodeQuotedPrintable", () => {
  it("escapes '=' so that '=_' (our boundaries' mark) never occurs in a part", () => {
    expect(encodeQuotedPrintable("a=_b ==_")).toBe("a=3D_b =3D=3D_");
    expect(encodeQuotedPrintable("--=_tessera_0")).not.toContain("=_");
  });

  it("encodes UTF-8 bytes and a space or tab that ends a line, with CRLF endings", () => {
    expect(encodeQuotedPrintable("café \nnext\t\r\nlast")).toBe("caf=C3=A9=20\r\nnext=09\r\nlast");
  });

  it("breaks long lines softly at 76 characters without splitting an escape", () => {
    const encoded = encodeQuotedPrintable(`${"a".repeat(74)}é${"b".repeat(10)}`);
    expect(encoded.split("\r\n")).toEqual([`${"a".repeat(74)}=`, `=C3=A9${"b".repeat(10)}`]);
    const exact = encodeQuotedPrintable("c".repeat(76));
    expect(exact).toBe("c".repeat(76));
  });
});
