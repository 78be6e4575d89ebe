import { describe, expect, it } from "vitest";
import { readFormBody } from "../src/index.js";

const PREFIX = "Failed to deserialize form body: ";

function formRequest(
  body: BodyInit,
  contentType: string | null = "application/x-www-form-urlencoded",
) {
  const headers = new Headers();
  if (contentType !== null) headers.set("content-type", contentType);
  return new Request("https://app.example/login", { method: "POST", headers, body });
}

describe("readFormBody", () => {
  it("reads fields, decoding + and percent escapes as UTF-8", async () => {
    const result = await readFormBody(
      formRequest("email=zo%C3%AB%40example.com&password=a+b%26c&remember_me=1"),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.get("email")).toBe("zoë@example.com");
    expect(result.value.get("password")).toBe("a b&c");
    expect(result.value.get("remember_me")).toBe("1");
  });

  it("keeps every value of a repeated name, in order", async () => {
    const result = await readFormBody(formRequest("tag=a&tag=b&tag="));
    expect(result.ok && result.value.getAll("tag")).toEqual(["a", "b", ""]);
  });

  it("does not drop a leading ? as URLSearchParams would", async () => {
    const result = await readFormBody(formRequest("?next=1"));
    expect(result.ok && [...result.value]).toEqual([["?next", "1"]]);
  });

  it("turns malformed escapes and bad UTF-8 into text instead of failing", async () => {
    const result = await readFormBody(formRequest("a=%&b=%zz&c=%FF"));
    expect(result.ok && [...result.value]).toEqual([
      ["a", "%"],
      ["b", "%zz"],
      ["c", "\ufffd"],
    ]);
  });

  it("reads an empty body as no fields", async () => {
    const result = await readFormBody(formRequest(""));
    expect(result.ok && [...result.value]).toEqual([]);
  });

  it("accepts parameters and any letter case in the Content-Type", async () => {
    const result = await readFormBody(
      formRequest("a=1", "Application/X-WWW-Form-URLEncoded; charset=UTF-8"),
    );
    expect(result.ok && result.value.get("a")).toBe("1");
  });

  it.each([
    ["missing", null],
    ["JSON", "application/json"],
    ["multipart", "multipart/form-data; boundary=----x"],
    ["text", "text/plain"],
  ])("refuses a %s Content-Type with a 400", async (_name, contentType) => {
    const result = await readFormBody(formRequest("a=1", contentType));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const message = `${PREFIX}expected \`Content-Type: application/x-www-form-urlencoded\``;
    expect(result.reason).toBe("unsupported-media-type");
    expect(result.message).toBe(message);
    expect(result.response.status).toBe(400);
    expect(await result.response.json()).toEqual({
      error: { code: "bad_request", message, status: 400 },
    });
  });

  it("refuses a body over the cap", async () => {
    const result = await readFormBody(formRequest(`a=${"x".repeat(100)}`), { maximumBytes: 64 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("too-large");
    expect(result.message).toBe(`${PREFIX}the body is larger than 64 bytes`);
    expect(result.response.status).toBe(400);
  });
});
