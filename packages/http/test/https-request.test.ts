import { describe, expect, it } from "vitest";
import { isHttpsRequest } from "../src/index.js";

describe("isHttpsRequest", () => {
  it("reads the scheme of the request URL, which the URL standard lower-cases", () => {
    expect(isHttpsRequest(new Request("https://app.example/posts"))).toBe(true);
    expect(isHttpsRequest(new Request("HTTPS://App.Example/posts"))).toBe(true);
    expect(isHttpsRequest(new Request("http://app.example/posts"))).toBe(false);
    // A path or query that mentions https changes nothing.
    expect(isHttpsRequest(new Request("http://app.example/https:/x?u=https://y"))).toBe(false);
  });
});
