import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import {
  defineJob,
  encodeJob,
  inputFromColumns,
  inputToColumns,
  MemoryJobStore,
  readJobEnvironment,
} from "../src/index.js";

const PREFIX = "Failed to deserialize the JSON body into the target type: ";

const render = defineJob("render", ["prompt:text", "width:integer?", "scale:float?"]);

/** One input of every other kind a job takes. */
const print = defineJob("print", [
  "day:date",
  "at:time?",
  "duplex:boolean",
  "options:json?",
  "paper:enum:a4,letter",
  "copies:int?",
]);

describe("defineJob", () => {
  it("names the table and parses the declarations into fields", () => {
    expect(render.name).toBe("render");
    expect(render.table).toBe("render_jobs");
    expect(render.inputs.map((field) => [field.name, field.type, field.optional])).toEqual([
      ["prompt", "text", false],
      ["width", "integer", true],
      ["scale", "float", true],
    ]);
    expect(print.inputs.find((field) => field.name === "paper")!.args).toEqual(["a4", "letter"]);
    expect(print.inputs.find((field) => field.name === "copies")!.type).toBe("integer");
    expect(defineJob("ping", []).inputs).toEqual([]);
  });

  it("refuses a job name that cannot be a table, a path or a variable", () => {
    expect(() => defineJob("Render", [])).toThrow(
      "invalid job name `Render` (job names are snake_case and start with a letter",
    );
    expect(() => defineJob("render-job", [])).toThrow("invalid job name `render-job`");
    expect(() => defineJob("render__job", [])).toThrow(Error);
  });

  it("throws the fields' refusal and hint for a declaration error", () => {
    const cases: [string[], string][] = [
      [
        ["bad name:text"],
        "job render: invalid field name `bad name` (names are snake_case and start with a letter, e.g. `bad_name`.)",
      ],
      [["prompt"], "job render: field `prompt` has no type (write `prompt:string`"],
      [
        ["width:integr?"],
        "job render: unknown field type `integr` for `width` (did you mean `width:integer`?",
      ],
      [
        ["hd:boolean?"],
        "job render: boolean field `hd` cannot be optional (write `hd:boolean`: a boolean that is not sent is false)",
      ],
      [["style:enum"], "job render: enum `style` has no values"],
      [["prompt:text", "prompt:string"], "job render: field `prompt` is listed twice"],
      [["order:text"], "job render: field name `order` is reserved"],
      [["id:integer"], "job render: field name `id` is reserved"],
    ];
    for (const [declarations, message] of cases) {
      expect(() => defineJob("render", declarations)).toThrow(message);
    }
  });

  it("refuses the types that are not a value in a column, with what to write instead", () => {
    const cases: [string, string][] = [
      ["photo:attachment", "(inputs travel to the service in a JSON body, which carries no file"],
      ["photo:attachment?", "e.g. `photo_url:string`"],
      ["photos:attachments", "e.g. `photo_urls:json`"],
      ["post:references", "Pass the id as a value, e.g. `post_id:integer`"],
      ["target:polymorphic:post,comment", "e.g. `target_type:string` and `target_id:integer`"],
      ["public_id:token", "a job already has its `id`"],
      ["lock_version:integer", "compare-and-set"],
    ];
    for (const [declaration, hint] of cases) {
      const attempt = () => defineJob("render", ["prompt:text", declaration]);
      expect(attempt).toThrow(`job render: \`${declaration}\` cannot be a job input (`);
      expect(attempt).toThrow(hint);
    }
  });

  it("refuses unique inputs and names every job already has", () => {
    expect(() => defineJob("render", ["prompt:text^"])).toThrow(
      "job render: job input `prompt` cannot be unique (a second job with the same value would fail with a database error instead of an answer: drop the `^`)",
    );
    for (const name of ["status", "user_id", "progress", "result", "token", "last_attempt_at"]) {
      expect(() => defineJob("render", [`${name}:string?`])).toThrow(
        `job render: job input \`${name}\` clashes with a field every job has (every job has \`id\`, \`user_id\`, \`status\``,
      );
    }
    expect(() => defineJob("render", ["status:text"])).toThrow("e.g. `render_status`");
  });

  it("takes rich_text inputs with a sanitizer, and refuses them without one", () => {
    expect(() => defineJob("note", ["body:rich_text"])).toThrow(
      "job note: `body:rich_text` needs a sanitizer: pass `richText: richTextSanitizer` (from @tessera/sanitizer)",
    );
    const note = defineJob("note", ["body:rich_text"], { richText: richTextSanitizer });
    expect(note.decodeInput({ body: '<p onclick="x()">Hi<script>x()</script></p>' })).toEqual({
      ok: true,
      value: { body: "<p>Hi</p>" },
    });
  });
});

describe("decodeInput: the JSON create semantics of records, through @tessera/fields", () => {
  it("accepts typed values, and null or blank for optional fields", () => {
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

  it("reads numeric strings for optional number fields only", () => {
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
      [{ prompt: 5 }, "prompt: invalid type: integer 5, expected a string"],
      [{ prompt: "p", width: 1.5 }, "width: invalid type: floating point 1.5, expected an integer"],
      [{ prompt: "p", width: true }, "width: invalid type: boolean true, expected an integer"],
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
          error: { code: "bad_request", message: `${PREFIX}${reason}`, status: 400 },
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
    const dates = print.decodeInput({
      day: "2025-02-30",
      at: "25:00",
      duplex: false,
      paper: "a4",
    });
    expect(dates).toMatchObject({
      status: 422,
      fields: { day: ["is not a valid date"], at: ["is not a valid time"] },
    });
    if (!dates.ok) {
      expect(dates.response.status).toBe(422);
      expect(await dates.response.json()).toEqual({
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { day: ["is not a valid date"], at: ["is not a valid time"] },
        },
      });
    }
  });

  it("decodes dates, booleans, json and enums into their JSON form", () => {
    const options = { staple: true, pages: [1, 3], note: null };
    expect(
      print.decodeInput({ day: "2025-03-01", at: "09:30", duplex: true, options, paper: "a4" }),
    ).toEqual({
      ok: true,
      value: {
        day: "2025-03-01",
        at: "09:30",
        duplex: true,
        options,
        paper: "a4",
        copies: null,
      },
    });
    // A boolean that is not sent is false; a json string stays a string.
    expect(print.decodeInput({ day: "2025-03-01", options: "", paper: "letter" })).toEqual({
      ok: true,
      value: {
        day: "2025-03-01",
        at: null,
        duplex: false,
        options: "",
        paper: "letter",
        copies: null,
      },
    });
  });

  it("answers 400 for an enum value outside its list or a boolean of another JSON type", () => {
    expect(print.decodeInput({ day: "2025-03-01", paper: "a3" })).toMatchObject({
      status: 400,
      message: `${PREFIX}paper: unknown variant \`a3\`, expected one of \`a4\`, \`letter\``,
    });
    expect(print.decodeInput({ day: "2025-03-01", duplex: "yes", paper: "a4" })).toMatchObject({
      status: 400,
      message: `${PREFIX}duplex: invalid type: string "yes", expected a boolean`,
    });
    expect(print.decodeInput({ day: "2025-03-01", duplex: true })).toMatchObject({
      status: 400,
      message: `${PREFIX}missing field \`paper\``,
    });
  });
});

describe("inputs in their columns", () => {
  const decoded = print.decodeInput({
    day: "2025-03-01",
    duplex: true,
    options: { staple: true },
    paper: "letter",
    copies: 2,
  });
  const input = decoded.ok ? decoded.value : {};

  it("stores booleans as 0 or 1 and json as its text, and reads them back as they were", () => {
    const columns = inputToColumns(print, input);
    expect(columns).toEqual({
      day: "2025-03-01",
      at: null,
      duplex: 1,
      options: '{"staple":true}',
      paper: "letter",
      copies: 2,
    });
    expect(inputFromColumns(print, { id: 4, ...columns, status: "queued" })).toEqual(input);
    expect(inputToColumns(print, { ...input, duplex: false, options: null }).duplex).toBe(0);
  });

  it("throws for an input that decodeInput would not have given", () => {
    expect(() => inputToColumns(print, { ...input, duplex: 1 })).toThrow(
      new TypeError(
        "input duplex of job print is not a boolean value: decode it with decodeInput first",
      ),
    );
    expect(() => inputToColumns(print, { ...input, paper: null })).toThrow(/input paper/);
    expect(() => inputToColumns(print, { ...input, copies: [2] })).toThrow(/input copies/);
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

  it("shows booleans as true or false and json as its value, as the memory store keeps them", async () => {
    const store = new MemoryJobStore(print);
    const decoded = print.decodeInput({
      day: "2025-03-01",
      duplex: true,
      options: { pages: [1, 2] },
      paper: "a4",
      ignored: "x",
    });
    if (!decoded.ok) throw new Error("the body should decode");
    const job = await store.create({ userId: 1, input: decoded.value, now: 0 });
    expect(encodeJob(job)).toMatchObject({
      day: "2025-03-01",
      at: null,
      duplex: true,
      options: { pages: [1, 2] },
      paper: "a4",
      copies: null,
    });
    expect(encodeJob(job)).not.toHaveProperty("ignored");
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
