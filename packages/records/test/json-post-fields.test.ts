import { describe, expect, it } from "vitest";
import { ADA, envelope, postBody, setUpApp } from "./fixtures.js";

const PREFIX = "Failed to deserialize the JSON body into the target type: ";

/** Valid JSON values per field, and the value each is stored and sent back as. */
const VALID: ReadonlyArray<readonly [string, unknown, unknown]> = [
  ["title", "Hello", "Hello"],
  ["title", " Spaces kept ", " Spaces kept "],
  ["body", "<p>Hi <script>alert(1)</script><em>there</em></p>", "<p>Hi <em>there</em></p>"],
  ["body", "<p> </p>", null],
  ["body", null, null],
  ["published", true, true],
  ["published", false, false],
  ["views", 7, 7],
  ["views", "7", 7],
  ["views", -9007199254740991, -9007199254740991],
  ["views", "", null],
  ["rating", 4.5, 4.5],
  ["rating", "2.5", 2.5],
  ["publish_on", "2024-02-29", "2024-02-29"],
  ["starts_at", "2024-01-01T10:00", "2024-01-01T10:00"],
  ["starts_at", "2024-01-01 10:00:59", "2024-01-01 10:00:59"],
  ["reminder_at", "07:30", "07:30"],
  ["reminder_at", "23:59:59", "23:59:59"],
  ["price", "-12.50", "-12.50"],
  ["external_ref", "550E8400-E29B-41D4-A716-446655440000", "550E8400-E29B-41D4-A716-446655440000"],
  [
    "metadata",
    { tags: ["a", 1, true], nested: { x: null } },
    { tags: ["a", 1, true], nested: { x: null } },
  ],
  ["metadata", "just text", "just text"],
  ["metadata", [1, 2], [1, 2]],
  ["status", "review", "review"],
  ["slug", "hello-world", "hello-world"],
  ["slug", null, null],
];

/** Values refused before validation: the 400 reason after the prefix. */
const MALFORMED: ReadonlyArray<readonly [string, unknown, string]> = [
  ["title", 5, "title: invalid type: integer 5, expected a string"],
  ["title", null, "title: invalid type: null, expected a string"],
  ["body", 5, "body: invalid type: integer 5, expected a string"],
  ["published", "yes", 'published: invalid type: string "yes", expected a boolean'],
  ["published", 1, "published: invalid type: integer 1, expected a boolean"],
  ["views", "x", 'views: invalid value: string "x", expected an integer'],
  ["views", 1.5, "views: invalid type: floating point 1.5, expected an integer"],
  ["rating", "x", 'rating: invalid value: string "x", expected a number'],
  ["rating", true, "rating: invalid type: boolean true, expected a number"],
  ["publish_on", 20240101, "publish_on: invalid type: integer 20240101, expected a string"],
  ["price", 12.5, "price: invalid type: floating point 12.5, expected a string"],
  [
    "status",
    "archived",
    "status: unknown variant `archived`, expected one of `draft`, `review`, `published`",
  ],
  ["status", 1, "status: invalid type: integer 1, expected a string"],
];

/** Values of the right JSON type that break a rule: the 422 message on the field. */
const INVALID: ReadonlyArray<readonly [string, unknown, string]> = [
  ["title", "   ", "can't be blank"],
  ["title", "", "can't be blank"],
  ["views", 9007199254740992, "must be less than or equal to 9007199254740991"],
  ["views", -9007199254740992, "must be greater than or equal to -9007199254740991"],
  ["publish_on", "2023-02-29", "is not a valid date"],
  ["publish_on", "2024-1-01", "is not a valid date"],
  ["starts_at", "2024-01-01", "is not a valid date and time"],
  ["starts_at", "2024-01-01T10:00Z", "is not a valid date and time"],
  ["reminder_at", "24:00", "is not a valid time"],
  ["price", "1e3", "is not a decimal number"],
  ["price", "1,000", "is not a decimal number"],
  ["external_ref", "not-a-uuid", "is not a valid UUID"],
];

describe("POST /api/posts, field by field", () => {
  it.each(VALID)("stores %s = %j as %j and answers 201 with it", async (field, input, stored) => {
    const app = await setUpApp();
    const response = await app.sendJson(ADA, "POST", "/api/posts", postBody({ [field]: input }));
    expect(response.status).toBe(201);
    const record = (await response.json()) as Record<string, unknown>;
    expect(record[field]).toEqual(stored);
    const shown = await app.api(ADA, "GET", `/api/posts/${record.id}`);
    expect(((await shown.json()) as Record<string, unknown>)[field]).toEqual(stored);
  });

  it.each(MALFORMED)("answers 400 for %s = %j: %s", async (field, input, reason) => {
    const app = await setUpApp();
    const response = await app.sendJson(ADA, "POST", "/api/posts", postBody({ [field]: input }));
    expect(response.status).toBe(400);
    expect(await envelope(response)).toEqual({
      error: { code: "bad_request", message: PREFIX + reason, status: 400 },
    });
    expect(await app.rows("posts")).toEqual([]);
  });

  it.each(INVALID)("answers 422 for %s = %j: %s", async (field, input, message) => {
    const app = await setUpApp();
    const response = await app.sendJson(ADA, "POST", "/api/posts", postBody({ [field]: input }));
    expect(response.status).toBe(422);
    expect(await envelope(response)).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: { [field]: [message] },
      },
    });
    expect(await app.rows("posts")).toEqual([]);
  });

  it("answers 400 for a missing required key, naming it", async () => {
    const app = await setUpApp();
    for (const [body, key] of [
      [{ status: "draft" }, "title"],
      [{ title: "Hi" }, "status"],
    ] as const) {
      const response = await app.sendJson(ADA, "POST", "/api/posts", body);
      expect(response.status).toBe(400);
      expect((await envelope(response)).error.message).toBe(`${PREFIX}missing field \`${key}\``);
    }
  });

  it("reports every failing field at once", async () => {
    const app = await setUpApp();
    const response = await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({
        title: " ",
        publish_on: "2023-02-30",
        reminder_at: "25:00",
        price: "x",
        external_ref: "y",
        views: 9007199254740992,
      }),
    );
    expect(response.status).toBe(422);
    expect((await envelope(response)).error.fields).toEqual({
      title: ["can't be blank"],
      views: ["must be less than or equal to 9007199254740991"],
      publish_on: ["is not a valid date"],
      reminder_at: ["is not a valid time"],
      price: ["is not a decimal number"],
      external_ref: ["is not a valid UUID"],
    });
  });

  it("answers the full record: defaults, the owner, timestamps; owner and read-only keys come from us", async () => {
    const app = await setUpApp();
    const response = await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({
        id: 99,
        user_id: 2,
        lock_version: 7,
        created_at: "2000-01-01 00:00:00",
        cover_key: "../../etc/passwd",
        cover_filename: "x.png",
        photos: ["a"],
      }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: 1,
      user_id: ADA,
      title: "Hello",
      body: null,
      published: false,
      views: null,
      rating: null,
      publish_on: null,
      starts_at: null,
      reminder_at: null,
      price: null,
      external_ref: null,
      metadata: null,
      status: "draft",
      slug: null,
      cover_key: null,
      cover_filename: null,
      cover_content_type: null,
      cover_size: null,
      lock_version: 0,
      created_at: "2025-01-01 08:00:00",
      updated_at: "2025-01-01 08:00:00",
    });
  });

  it("refuses bodies that are not a JSON object with the documented 400", async () => {
    const app = await setUpApp();
    const cases: Array<[RequestInit, string]> = [
      [
        { body: "[]", headers: { "Content-Type": "application/json" } },
        "invalid type: array, expected an object",
      ],
      [
        { body: "{", headers: { "Content-Type": "application/json" } },
        "the body is not valid JSON",
      ],
      [
        { body: "title=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
        "expected `Content-Type: application/json`",
      ],
    ];
    for (const [init, reason] of cases) {
      const response = await app.api(ADA, "POST", "/api/posts", init);
      expect(response.status).toBe(400);
      expect((await envelope(response)).error.message).toBe(PREFIX + reason);
    }
  });
});

describe("PATCH /api/posts/{id}", () => {
  async function withPost() {
    const app = await setUpApp();
    const created = await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({ body: "<p>Body</p>", views: 3, metadata: { a: 1 }, slug: "s" }),
    );
    expect(created.status).toBe(201);
    return app;
  }
  const patch = async (app: Awaited<ReturnType<typeof withPost>>, body: unknown) => {
    const response = await app.sendJson(ADA, "PATCH", "/api/posts/1", body);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it("changes only the keys sent and keeps the others", async () => {
    const app = await withPost();
    app.setNow(Date.UTC(2025, 0, 2, 9, 30, 0));
    const { status, json } = await patch(app, { views: 9, published: true });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      title: "Hello",
      body: "<p>Body</p>",
      views: 9,
      published: true,
      metadata: { a: 1 },
      created_at: "2025-01-01 08:00:00",
      updated_at: "2025-01-02 09:30:00",
    });
  });

  it("clears optional fields with null or a blank string; a json string stays a string", async () => {
    const app = await withPost();
    expect((await patch(app, { views: null, slug: "  ", body: "" })).json).toMatchObject({
      views: null,
      slug: null,
      body: null,
    });
    expect((await patch(app, { metadata: "" })).json.metadata).toBe("");
    expect((await patch(app, { metadata: null })).json.metadata).toBeNull();
  });

  it("validates what is sent with the same 400 and 422 as create", async () => {
    const app = await withPost();
    expect(await patch(app, { title: null })).toEqual({
      status: 400,
      json: {
        error: {
          code: "bad_request",
          message: `${PREFIX}title: invalid type: null, expected a string`,
          status: 400,
        },
      },
    });
    expect(await patch(app, { title: "", reminder_at: "7" })).toEqual({
      status: 422,
      json: {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { title: ["can't be blank"], reminder_at: ["is not a valid time"] },
        },
      },
    });
    expect((await patch(app, { status: "gone" })).status).toBe(400);
    expect((await app.rows("posts"))[0]).toMatchObject({ title: "Hello", lock_version: 0 });
  });

  it("never moves a record to another owner or changes read-only columns", async () => {
    const app = await withPost();
    const { status, json } = await patch(app, {
      user_id: 2,
      id: 5,
      cover_key: "x",
      lock_version: undefined,
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: 1, user_id: ADA, cover_key: null });
  });
});
