// Every field type of the example app's `posts`, valid and invalid, on POST /api/posts and
// PATCH /api/posts/{id}: over real HTTP, with the stored row read back from the SQLite file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let token: string;
let ownerId: number;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
  ({ token, id: ownerId } = await signUp());
});
afterAll(() => server.stop());

type Row = Record<string, unknown>;

async function signUp(): Promise<{ token: string; id: number }> {
  const client = newClientAddress();
  const credentials = {
    email: `fields.${client}.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  const user = await api("/api/auth/signup", { method: "POST", json: credentials, client });
  expect(user.status).toBe(201);
  const issued = await api("/api/auth/token", { method: "POST", json: credentials, client });
  expect(issued.status).toBe(200);
  return { token: issued.body.token, id: user.body.id };
}

async function api(
  path: string,
  options: { method?: string; json?: unknown; body?: string; token?: string; client?: string },
) {
  const headers: Record<string, string> = { "x-forwarded-for": options.client ?? "203.0.113.9" };
  if (options.json !== undefined || options.body !== undefined) {
    headers["content-type"] = "application/json";
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${server.url}${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body ?? (options.json === undefined ? null : JSON.stringify(options.json)),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const createPost = (json: unknown, as = token) =>
  api("/api/posts", { method: "POST", json, token: as });
const patchPost = (id: number, json: unknown, as = token) =>
  api(`/api/posts/${id}`, { method: "PATCH", json, token: as });
const postRow = async (id: number) =>
  (await server.query<Row>("SELECT * FROM posts WHERE id = ?", id))[0];
const postCount = async () =>
  (
    await server.query<{ n: number }>("SELECT count(*) AS n FROM posts WHERE user_id = ?", ownerId)
  )[0]!.n;

const deserialize = (reason: string) => ({
  error: {
    code: "bad_request",
    message: `Failed to deserialize the JSON body into the target type: ${reason}`,
    status: 400,
  },
});
const invalid = (fields: Record<string, string[]>) => ({
  error: { code: "validation_failed", message: "Validation failed", status: 422, fields },
});

/** The smallest create body: the two required keys without a default. */
const REQUIRED = { title: "A post", status: "draft" };
const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

/** A value accepted for `field`: what the API answers, and the column as SQLite holds it. */
interface Accepted {
  readonly field: string;
  readonly input: unknown;
  readonly json: unknown;
  readonly column?: unknown;
}
const accepted = (field: string, input: unknown, json: unknown, column: unknown = json) => ({
  field,
  input,
  json,
  column,
});

const ACCEPTED: readonly Accepted[] = [
  accepted("title", "Hello, world", "Hello, world"),
  accepted("title", "  kept as sent  ", "  kept as sent  "),
  accepted(
    "body",
    '<p>Hi <strong>there</strong><script>alert(1)</script></p><a href="javascript:alert(1)">x</a>',
    "<p>Hi <strong>there</strong></p><a>x</a>",
  ),
  accepted(
    "body",
    '<p><a href="https://example.com" onclick="x()">link</a></p>',
    '<p><a href="https://example.com">link</a></p>',
  ),
  accepted("body", "<p> </p>", null),
  accepted("body", "", null),
  accepted("body", null, null),
  accepted("published", true, true, 1),
  accepted("published", false, false, 0),
  accepted("views", 42, 42),
  accepted("views", 0, 0),
  accepted("views", -7, -7),
  accepted("views", "7", 7),
  accepted("views", 9007199254740991, 9007199254740991),
  accepted("views", -9007199254740991, -9007199254740991),
  accepted("views", "", null),
  accepted("views", null, null),
  accepted("rating", 4.5, 4.5),
  accepted("rating", 3, 3),
  accepted("rating", "2.25", 2.25),
  accepted("rating", "1e3", 1000),
  accepted("rating", null, null),
  accepted("publish_on", "2024-02-29", "2024-02-29"),
  accepted("publish_on", "", null),
  accepted("starts_at", "2024-02-29 13:05", "2024-02-29 13:05"),
  accepted("starts_at", "2024-02-29T13:05:09", "2024-02-29T13:05:09"),
  accepted("reminder_at", "09:30", "09:30"),
  accepted("reminder_at", "23:59:59", "23:59:59"),
  accepted("price", "-12.50", "-12.50"),
  accepted("price", "+3", "+3"),
  accepted("price", "0.000001", "0.000001"),
  accepted("external_ref", UUID, UUID),
  accepted("external_ref", UUID.toUpperCase(), UUID.toUpperCase()),
  accepted(
    "metadata",
    { tags: ["a", "b"], n: 1 },
    { tags: ["a", "b"], n: 1 },
    '{"tags":["a","b"],"n":1}',
  ),
  accepted("metadata", [1, 2], [1, 2], "[1,2]"),
  accepted("metadata", "a string", "a string", '"a string"'),
  accepted("metadata", 3, 3, "3"),
  accepted("metadata", false, false, "false"),
  accepted("metadata", null, null),
  accepted("status", "review", "review"),
  accepted("status", "published", "published"),
  accepted("slug", "", null),
  accepted("slug", "   ", null),
  accepted("slug", null, null),
];

/** A refused value: a 400 before validation (`reason`) or a 422 for the field (`message`). */
type Refused =
  | { readonly field: string; readonly input: unknown; readonly reason: string }
  | { readonly field: string; readonly input: unknown; readonly message: string };
const badRequest = (field: string, input: unknown, reason: string): Refused => ({
  field,
  input,
  reason,
});
const unprocessable = (field: string, input: unknown, message: string): Refused => ({
  field,
  input,
  message,
});

let nested: Record<string, unknown> = {};
for (let depth = 0; depth < 200; depth++) nested = { deeper: nested };

const REFUSED: readonly Refused[] = [
  unprocessable("title", "", "can't be blank"),
  unprocessable("title", " \t\n ", "can't be blank"),
  badRequest("title", 5, "title: invalid type: integer 5, expected a string"),
  badRequest("title", null, "title: invalid type: null, expected a string"),
  badRequest("title", ["x"], "title: invalid type: array, expected a string"),
  badRequest("body", 5, "body: invalid type: integer 5, expected a string"),
  badRequest("body", { html: "x" }, "body: invalid type: object, expected a string"),
  badRequest("published", "true", 'published: invalid type: string "true", expected a boolean'),
  badRequest("published", 1, "published: invalid type: integer 1, expected a boolean"),
  badRequest("published", null, "published: invalid type: null, expected a boolean"),
  unprocessable("views", 9007199254740992, "must be less than or equal to 9007199254740991"),
  unprocessable("views", -9007199254740992, "must be greater than or equal to -9007199254740991"),
  unprocessable("views", "9007199254740993", "must be less than or equal to 9007199254740991"),
  badRequest("views", 1.5, "views: invalid type: floating point 1.5, expected an integer"),
  badRequest("views", "x", 'views: invalid value: string "x", expected an integer'),
  badRequest("views", " 7", 'views: invalid value: string " 7", expected an integer'),
  badRequest("views", "1.5", 'views: invalid value: string "1.5", expected an integer'),
  badRequest("views", true, "views: invalid type: boolean true, expected an integer"),
  badRequest("rating", "abc", 'rating: invalid value: string "abc", expected a number'),
  badRequest("rating", [1], "rating: invalid type: array, expected a number"),
  unprocessable("publish_on", "2023-02-29", "is not a valid date"),
  unprocessable("publish_on", "2024-04-31", "is not a valid date"),
  unprocessable("publish_on", "2024-2-9", "is not a valid date"),
  unprocessable("publish_on", "29/02/2024", "is not a valid date"),
  badRequest(
    "publish_on",
    20240229,
    "publish_on: invalid type: integer 20240229, expected a string",
  ),
  unprocessable("starts_at", "2024-02-29", "is not a valid date and time"),
  unprocessable("starts_at", "2024-02-29 24:00", "is not a valid date and time"),
  unprocessable("starts_at", "2024-02-29T13:05:09Z", "is not a valid date and time"),
  unprocessable("starts_at", "2023-02-29 10:00", "is not a valid date and time"),
  unprocessable("reminder_at", "24:00", "is not a valid time"),
  unprocessable("reminder_at", "09:60", "is not a valid time"),
  unprocessable("reminder_at", "9:30", "is not a valid time"),
  unprocessable("reminder_at", "09:30:00.5", "is not a valid time"),
  unprocessable("price", "1e5", "is not a decimal number"),
  unprocessable("price", "1,000", "is not a decimal number"),
  unprocessable("price", " 12", "is not a decimal number"),
  unprocessable("price", "12.", "is not a decimal number"),
  badRequest("price", 12.5, "price: invalid type: floating point 12.5, expected a string"),
  unprocessable("external_ref", "not-a-uuid", "is not a valid UUID"),
  unprocessable("external_ref", UUID.replaceAll("-", ""), "is not a valid UUID"),
  unprocessable("external_ref", `{${UUID}}`, "is not a valid UUID"),
  badRequest("metadata", nested, "metadata: recursion limit exceeded"),
  badRequest(
    "status",
    "archived",
    "status: unknown variant `archived`, expected one of `draft`, `review`, `published`",
  ),
  badRequest(
    "status",
    "Draft",
    "status: unknown variant `Draft`, expected one of `draft`, `review`, `published`",
  ),
  badRequest("status", 1, "status: invalid type: integer 1, expected a string"),
  badRequest("status", null, "status: invalid type: null, expected a string"),
  badRequest("slug", 5, "slug: invalid type: integer 5, expected a string"),
];

const label = (input: unknown) => {
  const text = JSON.stringify(input);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};
const acceptedCases = ACCEPTED.map((c) => ({ ...c, name: `${c.field} = ${label(c.input)}` }));
const refusedCases = REFUSED.map((c) => ({ ...c, name: `${c.field} = ${label(c.input)}` }));

function expectRefusal(response: { status: number; body: unknown }, refusal: Refused): void {
  if ("reason" in refusal) {
    expect(response.status).toBe(400);
    expect(response.body).toEqual(deserialize(refusal.reason));
  } else {
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid({ [refusal.field]: [refusal.message] }));
  }
}

describe("POST /api/posts, field by field", () => {
  it.each(acceptedCases)("accepts $name", async ({ field, input, json, column }) => {
    const response = await createPost({ ...REQUIRED, [field]: input });
    expect(response.status).toBe(201);
    expect(response.body[field]).toEqual(json);
    expect(response.body.user_id).toBe(ownerId);
    expect((await postRow(response.body.id))?.[field]).toEqual(column);
    const shown = await api(`/api/posts/${response.body.id}`, { token });
    expect(shown.body).toEqual(response.body);
  });

  it.each(refusedCases)("refuses $name", async (refusal) => {
    const before = await postCount();
    const response = await createPost({ ...REQUIRED, [refusal.field]: refusal.input });
    expectRefusal(response, refusal);
    expect(await postCount()).toBe(before);
  });

  it("answers every column: defaults for what was left out, and the owner from the token", async () => {
    const response = await createPost({ ...REQUIRED, user_id: 999, id: 77 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      user_id: ownerId,
      title: "A post",
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
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: response.body.created_at,
    });
    expect(response.body.id).not.toBe(77);
    expect((await postRow(response.body.id))?.user_id).toBe(ownerId);
  });

  it("ignores the attachment columns and lock_version of a JSON body", async () => {
    const response = await createPost({
      ...REQUIRED,
      cover_key: "../../etc/passwd",
      cover_filename: "passwd",
      cover_content_type: "text/plain",
      cover_size: 5,
      lock_version: 5,
      photos: [{ photo_key: "x" }],
    });
    expect(response.status).toBe(201);
    const row = (await postRow(response.body.id))!;
    expect([row.cover_key, row.cover_filename, row.cover_content_type, row.cover_size]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(row.lock_version).toBe(0);
    const photos = await server.query(
      "SELECT * FROM post_photo WHERE post_id = ?",
      response.body.id,
    );
    expect(photos).toEqual([]);
  });

  it("refuses a missing required key with a 400, but a missing boolean is false", async () => {
    expect(await createPost({ status: "draft" })).toEqual({
      status: 400,
      body: deserialize("missing field `title`"),
    });
    expect(await createPost({ title: "No status" })).toEqual({
      status: 400,
      body: deserialize("missing field `status`"),
    });
    const noBoolean = await createPost(REQUIRED);
    expect(noBoolean.body.published).toBe(false);
    expect((await postRow(noBoolean.body.id))?.published).toBe(0);
  });

  it("reports every failing field at once in one 422", async () => {
    const before = await postCount();
    const response = await createPost({
      title: " ",
      status: "draft",
      views: 9007199254740992,
      publish_on: "2023-02-30",
      starts_at: "tomorrow",
      reminder_at: "25:00",
      price: "1e3",
      external_ref: "nope",
    });
    expect(response).toEqual({
      status: 422,
      body: invalid({
        title: ["can't be blank"],
        views: ["must be less than or equal to 9007199254740991"],
        publish_on: ["is not a valid date"],
        starts_at: ["is not a valid date and time"],
        reminder_at: ["is not a valid time"],
        price: ["is not a decimal number"],
        external_ref: ["is not a valid UUID"],
      }),
    });
    expect(await postCount()).toBe(before);
  });

  it("answers a 400 before validation when a body has both", async () => {
    const response = await createPost({ title: " ", status: "draft", views: "many" });
    expect(response).toEqual({
      status: 400,
      body: deserialize('views: invalid value: string "many", expected an integer'),
    });
  });

  it.each([
    ["not JSON", "{title:", "the body is not valid JSON"],
    ["empty", "", "the body is empty"],
    ["an array", "[]", "invalid type: array, expected an object"],
    ["a string", '"title"', "invalid type: string, expected an object"],
    ["null", "null", "invalid type: null, expected an object"],
  ])("refuses a body that is %s with a 400", async (_, body, reason) => {
    const before = await postCount();
    const response = await api("/api/posts", { method: "POST", body, token });
    expect(response).toEqual({ status: 400, body: deserialize(reason) });
    expect(await postCount()).toBe(before);
  });

  it("refuses a body sent without Content-Type: application/json", async () => {
    const response = await fetch(`${server.url}/api/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      body: JSON.stringify(REQUIRED),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(deserialize("expected `Content-Type: application/json`"));
  });

  it("answers 401 without a bearer token, and creates nothing", async () => {
    const before = await postCount();
    const response = await fetch(`${server.url}/api/posts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(REQUIRED),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
    expect(await postCount()).toBe(before);
  });
});

/** A post whose every optional field holds a value, so that clearing one shows. */
async function fullPost(): Promise<Row> {
  const response = await createPost({
    title: "Full",
    status: "review",
    body: "<p>body</p>",
    published: true,
    views: 1,
    rating: 1.5,
    publish_on: "2020-01-01",
    starts_at: "2020-01-01 08:00",
    reminder_at: "08:00",
    price: "1.00",
    external_ref: UUID,
    metadata: { full: true },
    slug: `full-${Math.random().toString(36).slice(2)}`,
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe("PATCH /api/posts/{id}, field by field", () => {
  it.each(acceptedCases)("accepts $name", async ({ field, input, json, column }) => {
    const post = await fullPost();
    const response = await patchPost(post.id as number, { [field]: input });
    expect(response.status).toBe(200);
    // Only the sent field changes, and the version moves on by one.
    expect(response.body).toEqual({
      ...post,
      [field]: json,
      lock_version: 1,
      updated_at: expect.any(String),
    });
    expect((await postRow(post.id as number))?.[field]).toEqual(column);
    expect((await postRow(post.id as number))?.lock_version).toBe(1);
  });

  it.each(refusedCases)("refuses $name and changes nothing", async (refusal) => {
    const post = await fullPost();
    const before = await postRow(post.id as number);
    const response = await patchPost(post.id as number, { [refusal.field]: refusal.input });
    expectRefusal(response, refusal);
    expect(await postRow(post.id as number)).toEqual(before);
  });

  it("keeps every column a body leaves out, and still counts an empty update", async () => {
    const post = await fullPost();
    const response = await patchPost(post.id as number, {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...post, lock_version: 1, updated_at: expect.any(String) });
  });

  it("reports every failing field at once, and changes nothing", async () => {
    const post = await fullPost();
    const before = await postRow(post.id as number);
    const response = await patchPost(post.id as number, {
      title: "",
      publish_on: "2021-02-29",
      external_ref: "x",
      price: "1.2.3",
      views: "1",
    });
    expect(response).toEqual({
      status: 422,
      body: invalid({
        title: ["can't be blank"],
        publish_on: ["is not a valid date"],
        price: ["is not a decimal number"],
        external_ref: ["is not a valid UUID"],
      }),
    });
    expect(await postRow(post.id as number)).toEqual(before);
  });

  it("refuses a lock_version that is not an integer with a 400", async () => {
    const post = await fullPost();
    const response = await patchPost(post.id as number, { title: "New", lock_version: "0" });
    expect(response).toEqual({
      status: 400,
      body: deserialize('lock_version: invalid type: string "0", expected an integer'),
    });
    expect((await postRow(post.id as number))?.title).toBe("Full");
  });

  it("keeps the owner and the id whatever the body says", async () => {
    const post = await fullPost();
    const other = await signUp();
    const response = await patchPost(post.id as number, {
      user_id: other.id,
      id: 1,
      title: "Mine",
    });
    expect(response.status).toBe(200);
    expect(await postRow(post.id as number)).toMatchObject({ user_id: ownerId, title: "Mine" });
  });

  it("ignores the attachment columns of a JSON body", async () => {
    const post = await fullPost();
    const response = await patchPost(post.id as number, {
      cover_key: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      cover_filename: "x.png",
    });
    expect(response.status).toBe(200);
    expect((await postRow(post.id as number))?.cover_key).toBeNull();
    expect((await postRow(post.id as number))?.cover_filename).toBeNull();
  });

  it.each([
    ["not JSON", "nope", "the body is not valid JSON"],
    ["an array", "[1]", "invalid type: array, expected an object"],
  ])("refuses a body that is %s with a 400", async (_, body, reason) => {
    const post = await fullPost();
    const response = await api(`/api/posts/${post.id}`, { method: "PATCH", body, token });
    expect(response).toEqual({ status: 400, body: deserialize(reason) });
    expect((await postRow(post.id as number))?.lock_version).toBe(0);
  });
});

describe("the unique optional slug", () => {
  it("is unique in the table: a duplicate is 422 for its owner and for anyone else, nulls repeat", async () => {
    const slug = `unique-${Date.now()}`;
    expect((await createPost({ ...REQUIRED, slug })).status).toBe(201);
    const before = await postCount();
    expect(await createPost({ ...REQUIRED, slug })).toEqual({
      status: 422,
      body: invalid({ slug: ["has already been taken"] }),
    });
    expect(await postCount()).toBe(before);

    expect((await createPost({ ...REQUIRED, slug: null })).status).toBe(201);
    expect((await createPost({ ...REQUIRED, slug: "" })).status).toBe(201);

    const other = await signUp();
    expect(await createPost({ ...REQUIRED, slug }, other.token)).toEqual({
      status: 422,
      body: invalid({ slug: ["has already been taken"] }),
    });
    const theirs = await createPost({ ...REQUIRED, slug: `${slug}-theirs` }, other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body.user_id).toBe(other.id);
  });

  it("refuses an update to a slug the owner already uses, and keeps the row", async () => {
    const slug = `taken-${Date.now()}`;
    await createPost({ ...REQUIRED, slug });
    const post = await fullPost();
    const before = await postRow(post.id as number);
    expect(await patchPost(post.id as number, { slug })).toEqual({
      status: 422,
      body: invalid({ slug: ["has already been taken"] }),
    });
    expect(await postRow(post.id as number)).toEqual(before);
  });
});
