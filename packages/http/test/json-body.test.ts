import { describe, expect, it } from "vitest";
import { DEFAULT_MAXIMUM_BODY_BYTES, readJsonBody } from "../src/index.js";

const PREFIX = "Failed to deserialize the JSON body into the target type: ";

function jsonRequest(body: BodyInit | null, contentType: string | null = "application/json") {
  const headers = new Headers();
  if (contentType !== null) headers.set("content-type", contentType);
  return new Request("https://app.example/api/things", { method: "POST", headers, body });
}

/** A body streamed in chunks, with no Content-Length, as a chunked upload arrives. */
function streamedRequest(chunks: readonly Uint8Array[], headers: HeadersInit = {}) {
  let pulled = 0;
  // highWaterMark 0: a chunk is pulled only when the reader asks for it.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[pulled++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("https://app.example/api/things", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { request, pulledChunks: () => pulled };
}

async function expectRefusal(
  result: Awaited<ReturnType<typeof readJsonBody>>,
  reason: string,
  detail: string,
) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.reason).toBe(reason);
  expect(result.message).toBe(`${PREFIX}${detail}`);
  expect(result.response.status).toBe(400);
  expect(await result.response.json()).toEqual({
    error: { code: "bad_request", message: `${PREFIX}${detail}`, status: 400 },
  });
}

describe("readJsonBody", () => {
  it("reads an object", async () => {
    const result = await readJsonBody(jsonRequest('{"email":"a@example.com","n":1}'));
    expect(result).toEqual({ ok: true, value: { email: "a@example.com", n: 1 } });
  });

  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON;Charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/json ; foo=bar",
    "application/merge-patch+json",
  ])("accepts Content-Type %j", async (contentType) => {
    expect(await readJsonBody(jsonRequest("{}", contentType))).toEqual({ ok: true, value: {} });
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["text/plain", "text/plain"],
    ["form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["json as a parameter", "text/plain; type=application/json"],
    ["prefix only", "application/jsonx"],
    ["no subtype", "application/"],
    ["garbage", ";;;=="],
  ])("refuses a %s Content-Type", async (_name, contentType) => {
    await expectRefusal(
      await readJsonBody(jsonRequest("{}", contentType)),
      "unsupported-media-type",
      "expected `Content-Type: application/json`",
    );
  });

  it("refuses JSON declared in another charset", async () => {
    await expectRefusal(
      await readJsonBody(jsonRequest("{}", "application/json; charset=iso-8859-1")),
      "unsupported-media-type",
      "a JSON body must be UTF-8",
    );
  });

  it.each([
    ["syntax error", "{", "the body is not valid JSON"],
    ["trailing comma", '{"a":1,}', "the body is not valid JSON"],
    ["single quotes", "{'a':1}", "the body is not valid JSON"],
    ["two values", "{} {}", "the body is not valid JSON"],
    ["empty body", "", "the body is empty"],
    ["blank body", " \n\t", "the body is empty"],
  ])("refuses a %s", async (_name, body, detail) => {
    await expectRefusal(await readJsonBody(jsonRequest(body)), "malformed", detail);
  });

  it("refuses a request with no body at all", async () => {
    await expectRefusal(await readJsonBody(jsonRequest(null)), "malformed", "the body is empty");
  });

  it("refuses bytes that are not UTF-8", async () => {
    const body = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    await expectRefusal(
      await readJsonBody(jsonRequest(body)),
      "malformed",
      "the body is not valid UTF-8",
    );
  });

  it("keeps Unicode and ignores a byte order mark", async () => {
    const body = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('{"name":"Zoë 🔑"}'),
    ]);
    expect(await readJsonBody(jsonRequest(body))).toEqual({ ok: true, value: { name: "Zoë 🔑" } });
  });

  it.each([
    ["array", "[1]", "invalid type: array, expected an object"],
    ["string", '"x"', "invalid type: string, expected an object"],
    ["number", "1", "invalid type: number, expected an object"],
    ["boolean", "true", "invalid type: boolean, expected an object"],
    ["null", "null", "invalid type: null, expected an object"],
  ])(
    "refuses a top-level %s where an object is expected (the default)",
    async (_n, body, detail) => {
      await expectRefusal(await readJsonBody(jsonRequest(body)), "wrong-type", detail);
    },
  );

  it("takes an array when the caller expects one, and refuses an object then", async () => {
    expect(await readJsonBody(jsonRequest("[1,2]"), { expect: "array" })).toEqual({
      ok: true,
      value: [1, 2],
    });
    await expectRefusal(
      await readJsonBody(jsonRequest("{}"), { expect: "array" }),
      "wrong-type",
      "invalid type: object, expected an array",
    );
  });

  it("takes any value with expect: any", async () => {
    for (const [body, value] of [
      ["null", null],
      ['"x"', "x"],
      ["3.5", 3.5],
      ["[]", []],
    ] as const) {
      expect(await readJsonBody(jsonRequest(body), { expect: "any" })).toEqual({ ok: true, value });
    }
  });

  it("keeps a __proto__ key as plain data, without changing any prototype", async () => {
    const result = await readJsonBody(jsonRequest('{"__proto__":{"polluted":true}}'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("accepts a body of exactly the cap and refuses one byte more", async () => {
    const exact = `"${"a".repeat(98)}"`;
    expect(exact).toHaveLength(100);
    const options = { maximumBytes: 100, expect: "any" } as const;
    expect((await readJsonBody(jsonRequest(exact), options)).ok).toBe(true);
    await expectRefusal(
      await readJsonBody(jsonRequest(`${exact} `), options),
      "too-large",
      "the body is larger than 100 bytes",
    );
  });

  it("has a default cap of 1 MiB", async () => {
    expect(DEFAULT_MAXIMUM_BODY_BYTES).toBe(1_048_576);
    const body = `{"a":"${"x".repeat(1_048_576)}"}`;
    await expectRefusal(
      await readJsonBody(jsonRequest(body)),
      "too-large",
      "the body is larger than 1048576 bytes",
    );
  });

  it("counts streamed bytes without a Content-Length and stops reading at the cap", async () => {
    const chunk = new Uint8Array(64).fill(0x20);
    const { request, pulledChunks } = streamedRequest(Array.from({ length: 100 }, () => chunk));
    await expectRefusal(
      await readJsonBody(request, { maximumBytes: 200 }),
      "too-large",
      "the body is larger than 200 bytes",
    );
    // 64 × 4 = 256 > 200: the fourth chunk crosses the cap and nothing more is read.
    expect(pulledChunks()).toBe(4);
  });

  it("does not trust a Content-Length that understates the body", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(150));
    const { request } = streamedRequest([chunk, chunk], { "content-length": "10" });
    await expectRefusal(
      await readJsonBody(request, { maximumBytes: 200 }),
      "too-large",
      "the body is larger than 200 bytes",
    );
  });

  it("refuses at once, unread, when Content-Length already exceeds the cap", async () => {
    const { request, pulledChunks } = streamedRequest([new TextEncoder().encode("{}")], {
      "content-length": "5000",
    });
    await expectRefusal(
      await readJsonBody(request, { maximumBytes: 200 }),
      "too-large",
      "the body is larger than 200 bytes",
    );
    expect(pulledChunks()).toBe(0);
  });

  it("reads a streamed body made of many chunks", async () => {
    const bytes = new TextEncoder().encode('{"list":[1,2,3],"text":"ünïcode"}');
    const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
    const { request } = streamedRequest(chunks);
    expect(await readJsonBody(request)).toEqual({
      ok: true,
      value: { list: [1, 2, 3], text: "ünïcode" },
    });
  });

  it("answers a body whose stream fails with a 400, not an exception", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const request = new Request("https://app.example/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectRefusal(await readJsonBody(request), "unreadable", "the body could not be read");
  });

  it("throws when the body was already read: a bug in the caller, not hostile input", async () => {
    const request = jsonRequest("{}");
    await request.text();
    await expect(readJsonBody(request)).rejects.toThrow(TypeError);
  });
});
