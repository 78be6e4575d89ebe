import { describe, expect, expectTypeOf, it } from "vitest";
import { defineJob, encodeJob, type JobDefinition, readJobEnvironment } from "../src/index.js";

const PREFIX = "Failed to deserialize the JSON body into the target type: ";

const render = defineJob("render", {
  prompt: { type: "TEXT" },
  width: {
    type: "INTEGER",
    optional: true,
    validate: (width) => (width < 64 ? "must be at least 64" : undefined),
  },
  scale: { type: "REAL", optional: true },
});

describe("defineJob", () => {
  it("names the table and types the input from the columns", () => {
    expect(render.name).toBe("render");
    expect(render.table).toBe("render_jobs");
    expectTypeOf(render).toEqualTypeOf<
      JobDefinition<{
        readonly prompt: string;
        readonly width: number | null;
        readonly scale: number | null;
      }>
    >();
  });

  it("refuses names that cannot be a table, a column or a variable", () => {
    expect(() => defineJob("Render", {})).toThrow("invalid job name Render");
    expect(() => defineJob("render-job", {})).toThrow(RangeError);
    expect(() => defineJob("render", { "bad name": { type: "TEXT" } })).toThrow(
      "invalid input name bad name",
    );
    expect(() => defineJob("render", { status: { type: "TEXT" } })).toThrow(
      "input name status is a column of every job table",
    );
  });
});

describe("decodeInput: the spec's JSON create semantics", () => {
  it("accepts typed values, and null or blank for optional columns", () => {
    expect(render.decodeInput({ prompt: "fox", width: 512, scale: 1.5 })).toEqual({
      ok: true,
      value: { prompt: "fox", width: 512, scale: 1.5 },
    });
    expect(render.decodeInput({ prompt: "fox", width: null, scale: " " })).toEqual({
      ok: true,
      value: { prompt: "fox", width: null, scale: null },
    });
    expect(render.decodeInput({ prompt: "fox", extra: true })).toEqual({
      ok: true,
      value: { prompt: "fox", width: null, scale: null },
    });
  });

  it("reads numeric strings for optional number columns only", () => {
    expect(render.decodeInput({ prompt: "fox", width: "128", scale: "2e1" })).toEqual({
      ok: true,
      value: { prompt: "fox", width: 128, scale: 20 },
    });
    const refused = render.decodeInput({ prompt: "fox", width: "12px" });
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      message: `${PREFIX}width: invalid value: string "12px", expected an integer`,
    });
  });

  it("answers 400 for a missing required key, a wrong JSON type, or a body that is no object", async () => {
    const cases: [unknown, string][] = [
      [{}, "missing field `prompt`"],
      [{ prompt: null }, "prompt: invalid type: null, expected a string"],
      [{ prompt: 5 }, "prompt: invalid type: number 5, expected a string"],
      [{ prompt: "p", width: 1.5 }, "width: invalid type: number 1.5, expected an integer"],
      [{ prompt: "p", width: true }, "width: invalid type: boolean, expected an integer"],
      [{ prompt: "p", scale: [1] }, "scale: invalid type: array, expected a number"],
      [[], "invalid type: array, expected a JSON object"],
      [null, "invalid type: null, expected a JSON object"],
    ];
    for (const [body, reason] of cases) {
      const result = render.decodeInput(body);
      expect(result).toMatchObject({ ok: false, status: 400, message: `${PREFIX}${reason}` });
      if (!result.ok) {
        expect(result.response.status).toBe(400);
        expect(await result.response.json()).toEqual({
          error: { message: `${PREFIX}${reason}`, status: 400 },
        });
      }
    }
  });

  it("answers 422 with every broken rule at once", async () => {
    const result = render.decodeInput({ prompt: "  ", width: 9007199254740992 });
    expect(result).toMatchObject({
      ok: false,
      status: 422,
      fields: {
        prompt: ["can't be blank"],
        width: ["must be less than or equal to 9007199254740991"],
      },
    });
    const small = render.decodeInput({ prompt: "p", width: "-9007199254740992" });
    expect(small).toMatchObject({
      fields: { width: ["must be greater than or equal to -9007199254740991"] },
    });
    const rule = render.decodeInput({ prompt: "p", width: 32 });
    expect(rule).toMatchObject({ status: 422, fields: { width: ["must be at least 64"] } });
    if (!rule.ok) {
      expect(await rule.response.json()).toEqual({
        error: {
          message: "Validation failed",
          status: 422,
          fields: { width: ["must be at least 64"] },
        },
      });
    }
  });
});

describe("encodeJob", () => {
  it("shows a job with snake_case keys, its inputs and its parsed result, and no token", () => {
    const t = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(
      encodeJob({
        id: 3,
        userId: 9,
        input: { prompt: "fox", width: null },
        status: "done",
        progress: 100,
        externalId: "ext-3",
        result: '{"url":"x.png"}',
        error: null,
        attempts: 1,
        lastAttemptAt: t,
        createdAt: t,
        updatedAt: t + 61_000,
      }),
    ).toEqual({
      id: 3,
      user_id: 9,
      prompt: "fox",
      width: null,
      status: "done",
      external_id: "ext-3",
      progress: 100,
      result: { url: "x.png" },
      error: null,
      attempts: 1,
      created_at: "2025-01-01 12:00:00",
      updated_at: "2025-01-01 12:01:01",
    });
  });
});

describe("readJobEnvironment", () => {
  it("reads <JOB>_URL, <JOB>_SECRET and an optional <JOB>_TOKEN", () => {
    expect(
      readJobEnvironment("render", { RENDER_URL: "https://r.example", RENDER_SECRET: "s" }),
    ).toEqual({ url: "https://r.example", secret: "s" });
    expect(
      readJobEnvironment("render", {
        RENDER_URL: "https://r.example",
        RENDER_SECRET: "s",
        RENDER_TOKEN: "t",
      }),
    ).toEqual({ url: "https://r.example", secret: "s", bearerToken: "t" });
    expect(() => readJobEnvironment("render", { RENDER_URL: "https://r.example" })).toThrow(
      "RENDER_SECRET is not set: job render needs it",
    );
    expect(() => readJobEnvironment("render", { RENDER_URL: "", RENDER_SECRET: "s" })).toThrow(
      "RENDER_URL is not set",
    );
  });
});
