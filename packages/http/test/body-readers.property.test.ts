import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFormBody, readJsonBody } from "../src/index.js";

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "text/plain",
  "",
  "application/json; charset=latin1",
);

function post(body: Uint8Array, type: string) {
  return new Request("https://app.example/", {
    method: "POST",
    headers: type ? { "content-type": type } : {},
    body: body as BodyInit,
  });
}

describe("body reader properties", () => {
  it("readJsonBody never throws on arbitrary bytes; every refusal is a 400 with the deserialize prefix", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        contentType,
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom("object", "array", "any"),
        async (bytes, type, maximumBytes, expect_) => {
          const result = await readJsonBody(post(bytes, type), { maximumBytes, expect: expect_ });
          if (result.ok) return;
          expect(result.response.status).toBe(400);
          expect(result.message).toMatch(
            /^Failed to deserialize the JSON body into the target type: /,
          );
          expect(await result.response.json()).toEqual({
            error: { code: "bad_request", message: result.message, status: 400 },
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("readJsonBody gives back any JSON value sent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const text = JSON.stringify(value);
        const result = await readJsonBody(
          post(new TextEncoder().encode(text), "application/json"),
          {
            expect: "any",
          },
        );
        expect(result).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 300 },
    );
  });

  it("readFormBody never throws on arbitrary bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), contentType, async (bytes, type) => {
        const result = await readFormBody(post(bytes, type));
        if (result.ok) expect(result.value).toBeInstanceOf(URLSearchParams);
        else expect(result.response.status).toBe(400);
      }),
      { numRuns: 500 },
    );
  });

  it("readFormBody gives back any fields sent", async () => {
    const fields = fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(fields, async (pairs) => {
        const body = new TextEncoder().encode(new URLSearchParams(pairs).toString());
        const result = await readFormBody(post(body, "application/x-www-form-urlencoded"));
        expect(result.ok && [...result.value]).toEqual(pairs);
      }),
      { numRuns: 300 },
    );
  });
});
