import { describe, expect, it } from "vitest";
import { MAXIMUM_LOCAL_PATH_LENGTH, safeLocalPath } from "../src/index.js";

describe("safeLocalPath", () => {
  it.each([
    "/",
    "/posts",
    "/posts/12/edit",
    "/search?q=a+b&page=2",
    "/search?q=100%25",
    "/page#section",
    "/files/my%20doc.pdf",
    "/caf%C3%A9",
    "/a/./b/../c",
    "/next?url=https://evil.example",
    "/redirect?to=//evil.example",
    "/a//b",
    "/100%",
  ])("accepts %j unchanged", (target) => {
    expect(safeLocalPath(target)).toBe(target);
  });

  it.each([
    ["empty", ""],
    ["relative", "posts"],
    ["dot relative", "./posts"],
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with path", "//evil.example/login"],
    ["triple slash", "///evil.example"],
    ["slash backslash", "/\\evil.example"],
    ["backslash first", "\\\\evil.example"],
    ["backslash inside", "/posts\\..\\..\\evil"],
    ["absolute https", "https://evil.example/"],
    ["absolute to this app", "https://app.example/posts"],
    ["javascript scheme", "javascript:alert(1)"],
    ["data scheme", "data:text/html,<script>alert(1)</script>"],
    ["scheme with leading space", " /posts"],
    ["tab between slashes", "/\t/evil.example"],
    ["newline between slashes", "/\n/evil.example"],
    ["carriage return", "/posts\r\nSet-Cookie: a=1"],
    ["NUL", "/posts\u0000"],
    ["space inside", "/my posts"],
    ["no-break space", "/\u00a0/evil.example"],
    ["line separator", "/\u2028/evil.example"],
    ["raw Unicode", "/café"],
    ["fullwidth solidus", "/\uff0fevil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["encoded slashes, lower case", "/%2f%2fevil.example"],
    ["encoded second slash", "/%2Fevil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["encoded backslash, lower case", "/%5cevil.example"],
    ["double-encoded slash", "/%252F%252Fevil.example"],
    ["triple-encoded slash", "/%25252Fevil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["encoded newline", "/%0A/evil.example"],
    ["encoded NUL", "/%00"],
    ["dot segments to //", "/..//evil.example"],
    ["dot segment to //", "/.//evil.example"],
    ["encoded dots and slashes", "/%2e%2e%2f%2fevil.example"],
    ["backslash dots after decoding", "/a%5C..%5C%5Cevil.example"],
    ["too long", `/${"a".repeat(MAXIMUM_LOCAL_PATH_LENGTH)}`],
  ])("refuses %s", (_name, target) => {
    expect(safeLocalPath(target)).toBeUndefined();
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["number", 42],
    ["array", ["/posts"]],
    ["object", { toString: () => "/posts" }],
  ])("refuses a %s", (_name, target) => {
    expect(safeLocalPath(target)).toBeUndefined();
  });

  it("accepts a target of exactly the maximum length", () => {
    const target = `/${"a".repeat(MAXIMUM_LOCAL_PATH_LENGTH - 1)}`;
    expect(safeLocalPath(target)).toBe(target);
  });
});
