// Who may reach which record, and the writes that race: ownership on every JSON record route,
// optimistic locking, `must exist` references, uniqueness under concurrency, and the
// listing's pages. Over real HTTP on the example app, checked against its SQLite file.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let uploads: string;

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), "tessera-uploads-"));
  server = await startTestServer({ TRUST_PROXY: "1", UPLOADS_PATH: uploads });
});
afterAll(async () => {
  await server.stop();
  rmSync(uploads, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
interface User {
  readonly id: number;
  readonly token: string;
}

async function signUp(): Promise<User> {
  const client = newClientAddress();
  const credentials = {
    email: `access.${client}.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  const user = await api("POST", "/api/auth/signup", { json: credentials, client });
  expect(user.status).toBe(201);
  const issued = await api("POST", "/api/auth/token", { json: credentials, client });
  expect(issued.status).toBe(200);
  return { id: user.body.id, token: issued.body.token };
}

async function api(
  method: string,
  path: string,
  options: { json?: unknown; body?: BodyInit; as?: User; client?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": options.client ?? "203.0.113.7" };
  if (options.json !== undefined) headers["content-type"] = "application/json";
  if (options.as) headers.authorization = `Bearer ${options.as.token}`;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body ?? (options.json === undefined ? null : JSON.stringify(options.json)),
  });
  const text = await response.text();
  const json = response.headers.get("content-type")?.startsWith("application/json");
  return { status: response.status, body: json && text ? JSON.parse(text) : text };
}

/** A multipart body with one file in part `file`, as the upload routes take it. */
function fileForm(name = "note.txt", type = "text/plain", text = "hello"): FormData {
  const form = new FormData();
  form.append("file", new Blob([text], { type }), name);
  return form;
}

async function created(path: string, json: unknown, as: User): Promise<Row> {
  const response = await api("POST", path, { json, as });
  expect(response.status).toBe(201);
  return response.body;
}

const post = (as: User, extra: Row = {}) =>
  created("/api/posts", { title: "Mine", status: "draft", ...extra }, as);

const NOT_FOUND = {
  status: 404,
  body: { error: { code: "not_found", message: "Not found", status: 404 } },
};
const STALE = {
  status: 409,
  body: {
    error: {
      code: "stale_record",
      message: "This record was changed by someone else: reload it and try again",
      status: 409,
    },
  },
};
const invalid = (fields: Record<string, string[]>) => ({
  status: 422,
  body: { error: { code: "validation_failed", message: "Validation failed", status: 422, fields } },
});

/** Every record row of every table, and the uploaded objects: what no refused request changes. */
async function snapshot() {
  const all = (table: string) => server.query<Row>(`SELECT * FROM ${table} ORDER BY id`);
  return {
    posts: await all("posts"),
    photos: await all("post_photo"),
    comments: await all("comments"),
    labels: await all("labels"),
    reactions: await all("reactions"),
    files: readdirSync(uploads).sort(),
  };
}

describe("another user's records", () => {
  let owner: User;
  let stranger: User;
  let postId: number;
  let photoId: number;
  let commentId: number;
  let labelId: string;
  let reactionId: number;
  let strangersPostId: number;

  beforeAll(async () => {
    owner = await signUp();
    stranger = await signUp();
    postId = (await post(owner)).id as number;
    const cover = await api("PUT", `/api/posts/${postId}/cover`, {
      body: fileForm("cover.png", "image/png", "png bytes"),
      as: owner,
    });
    expect(cover.status).toBe(200);
    const photo = await api("POST", `/api/posts/${postId}/photos`, {
      body: fileForm("photo.jpg", "image/jpeg", "jpeg bytes"),
      as: owner,
    });
    expect(photo.status).toBe(201);
    photoId = photo.body.id;
    commentId = (await created("/api/comments", { post_id: postId, body: "Hi" }, owner))
      .id as number;
    labelId = (await created("/api/labels", { name: "urgent" }, owner)).public_id as string;
    reactionId = (
      await created(
        "/api/reactions",
        { target_type: "post", target_id: postId, kind: "like" },
        owner,
      )
    ).id as number;
    strangersPostId = (await post(stranger)).id as number;
  });

  const routes = (): [string, string, { json?: unknown; body?: BodyInit }][] => [
    ["GET", `/api/posts/${postId}`, {}],
    ["PATCH", `/api/posts/${postId}`, { json: { title: "Taken over" } }],
    ["PATCH", `/api/posts/${postId}`, { json: { title: "Taken over", lock_version: 1 } }],
    ["PATCH", `/api/posts/${postId}`, { json: { title: "" } }],
    ["PATCH", `/api/posts/${postId}`, { json: ["not an object"] }],
    ["DELETE", `/api/posts/${postId}`, {}],
    ["GET", `/api/posts/${postId}/cover`, {}],
    ["PUT", `/api/posts/${postId}/cover`, { body: fileForm("evil.png", "image/png") }],
    ["DELETE", `/api/posts/${postId}/cover`, {}],
    ["GET", `/api/posts/${postId}/photos`, {}],
    ["POST", `/api/posts/${postId}/photos`, { body: fileForm("evil.png", "image/png") }],
    ["GET", `/api/posts/${postId}/photos/${photoId}`, {}],
    ["DELETE", `/api/posts/${postId}/photos/${photoId}`, {}],
    // The owner's file id under the stranger's own post.
    ["GET", `/api/posts/${strangersPostId}/photos/${photoId}`, {}],
    ["DELETE", `/api/posts/${strangersPostId}/photos/${photoId}`, {}],
    ["GET", `/api/comments/${commentId}`, {}],
    ["PATCH", `/api/comments/${commentId}`, { json: { body: "Taken over" } }],
    ["DELETE", `/api/comments/${commentId}`, {}],
    ["GET", `/api/labels/${labelId}`, {}],
    ["PATCH", `/api/labels/${labelId}`, { json: { name: "taken over" } }],
    ["DELETE", `/api/labels/${labelId}`, {}],
    ["GET", `/api/reactions/${reactionId}`, {}],
    ["PATCH", `/api/reactions/${reactionId}`, { json: { kind: "love" } }],
    ["DELETE", `/api/reactions/${reactionId}`, {}],
  ];

  it("are 404 Not found on every JSON route, and nothing changes", async () => {
    const before = await snapshot();
    expect(before.posts.length).toBe(2);
    expect(before.files.length).toBe(4);
    for (const [method, path, options] of routes()) {
      const answer = await api(method, path, { ...options, as: stranger });
      expect({ route: `${method} ${path}`, ...answer }).toEqual({
        route: `${method} ${path}`,
        ...NOT_FOUND,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("are answered exactly as records that do not exist", async () => {
    const missing: [string, string][] = [
      ["GET", "/api/posts/999999"],
      ["DELETE", "/api/posts/999999"],
      ["GET", "/api/posts/999999/cover"],
      ["GET", "/api/posts/999999/photos"],
      ["GET", `/api/posts/${strangersPostId}/photos/999999`],
      ["GET", "/api/labels/AAAAAAAAAAAAAAAAAAAAAA"],
    ];
    for (const [method, path] of missing) {
      expect({ path, ...(await api(method, path, { as: stranger })) }).toEqual({
        path,
        ...NOT_FOUND,
      });
    }
  });

  it("are left out of the stranger's listings", async () => {
    const posts = await api("GET", "/api/posts", { as: stranger });
    expect(posts.body.map((row: Row) => row.id)).toEqual([strangersPostId]);
    for (const plural of ["comments", "labels", "reactions"]) {
      expect(await api("GET", `/api/${plural}`, { as: stranger })).toEqual({
        status: 200,
        body: [],
      });
    }
  });

  it("a label is reached only by its public id: its integer id and malformed ids are 404", async () => {
    const [row] = await server.query<{ id: number }>(
      "SELECT id FROM labels WHERE public_id = ?",
      labelId,
    );
    const shown = await api("GET", `/api/labels/${labelId}`, { as: owner });
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty("id");
    expect(shown.body.public_id).toBe(labelId);
    for (const path of [
      `/api/labels/${row!.id}`,
      `/api/labels/${labelId.slice(1)}`,
      `/api/posts/0${postId}`,
      `/api/posts/${postId}.0`,
      "/api/posts/-1",
      "/api/posts/0",
      "/api/posts/abc",
      "/api/posts/99999999999999999999",
    ]) {
      expect({ path, ...(await api("GET", path, { as: owner })) }).toEqual({ path, ...NOT_FOUND });
    }
  });

  it("still belong to their owner, who reaches every one of them", async () => {
    expect((await api("GET", `/api/posts/${postId}`, { as: owner })).body.title).toBe("Mine");
    const cover = await api("GET", `/api/posts/${postId}/cover`, { as: owner });
    expect(cover).toEqual({ status: 200, body: "png bytes" });
    const photo = await api("GET", `/api/posts/${postId}/photos/${photoId}`, { as: owner });
    expect(photo).toEqual({ status: 200, body: "jpeg bytes" });
    expect((await api("GET", `/api/comments/${commentId}`, { as: owner })).body.body).toBe("Hi");
    expect((await api("GET", `/api/reactions/${reactionId}`, { as: owner })).body.kind).toBe(
      "like",
    );
  });
});

describe("optimistic locking", () => {
  let user: User;
  beforeAll(async () => {
    user = await signUp();
  });
  const row = async (id: number) =>
    (await server.query<Row>("SELECT * FROM posts WHERE id = ?", id))[0]!;

  it("increments lock_version on each update and answers 409 to a stale one", async () => {
    const { id } = await post(user);
    const first = await api("PATCH", `/api/posts/${id}`, {
      json: { title: "First", lock_version: 0 },
      as: user,
    });
    expect(first.status).toBe(200);
    expect(first.body.lock_version).toBe(1);
    const before = await row(id as number);

    for (const stale of [0, 2, 99]) {
      const refused = await api("PATCH", `/api/posts/${id}`, {
        json: { title: "Late", lock_version: stale },
        as: user,
      });
      expect(refused).toEqual(STALE);
    }
    expect(await row(id as number)).toEqual(before);

    const unchecked = await api("PATCH", `/api/posts/${id}`, { json: { title: "Any" }, as: user });
    expect(unchecked.body.lock_version).toBe(2);
    const current = await api("PATCH", `/api/posts/${id}`, {
      json: { title: "Current", lock_version: 2 },
      as: user,
    });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ title: "Current", lock_version: 3 });
    expect(await row(id as number)).toMatchObject({ title: "Current", lock_version: 3 });
  });

  it("lets exactly one of many simultaneous updates of one version through", async () => {
    const { id } = await post(user);
    const titles = Array.from({ length: 8 }, (_, n) => `Writer ${n}`);
    const answers = await Promise.all(
      titles.map((title) =>
        api("PATCH", `/api/posts/${id}`, { json: { title, lock_version: 0 }, as: user }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
    expect(await row(id as number)).toMatchObject({
      title: winners[0]!.body.title,
      lock_version: 1,
    });
  });

  it("loses no increment when simultaneous updates send no version", async () => {
    const { id } = await post(user);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        api("PATCH", `/api/posts/${id}`, { json: { views: n }, as: user }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect((await row(id as number)).lock_version).toBe(8);
  });
});

describe("references must exist", () => {
  let user: User;
  let other: User;
  let mine: number;
  let theirs: number;
  beforeAll(async () => {
    user = await signUp();
    other = await signUp();
    mine = (await post(user)).id as number;
    theirs = (await post(other)).id as number;
  });
  const count = async (table: string, as: User) =>
    (
      await server.query<{ n: number }>(
        `SELECT count(*) AS n FROM ${table} WHERE user_id = ?`,
        as.id,
      )
    )[0]!.n;

  it("creates a comment on the owner's own post", async () => {
    const comment = await api("POST", "/api/comments", {
      json: { post_id: mine, body: "Nice" },
      as: user,
    });
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({ post_id: mine, body: "Nice", user_id: user.id });
  });

  it.each([
    ["a post that does not exist", () => 999999],
    ["another user's post", () => theirs],
    ["id 0", () => 0],
    ["a negative id", () => -1],
    ["an id past 2^53 - 1", () => 9007199254740992],
  ])("refuses a comment on %s: post_id must exist", async (_, postId) => {
    const before = await count("comments", user);
    const answer = await api("POST", "/api/comments", {
      json: { post_id: postId(), body: "Hi" },
      as: user,
    });
    expect(answer).toEqual(invalid({ post_id: ["must exist"] }));
    expect(await count("comments", user)).toBe(before);
  });

  it("checks the fields before the references", async () => {
    const answer = await api("POST", "/api/comments", {
      json: { post_id: theirs, body: " " },
      as: user,
    });
    expect(answer).toEqual(invalid({ body: ["can't be blank"] }));
  });

  it("refuses a post_id of the wrong JSON type, or none, with a 400", async () => {
    const prefix = "Failed to deserialize the JSON body into the target type: ";
    expect(
      await api("POST", "/api/comments", { json: { post_id: `${mine}`, body: "Hi" }, as: user }),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: `${prefix}post_id: invalid type: string "${mine}", expected an integer`,
          status: 400,
        },
      },
    });
    expect(await api("POST", "/api/comments", { json: { body: "Hi" }, as: user })).toEqual({
      status: 400,
      body: {
        error: { code: "bad_request", message: `${prefix}missing field \`post_id\``, status: 400 },
      },
    });
  });

  it("refuses to move a comment to another user's post, and keeps it", async () => {
    const comment = await created("/api/comments", { post_id: mine, body: "Stay" }, user);
    const moved = await api("PATCH", `/api/comments/${comment.id}`, {
      json: { post_id: theirs },
      as: user,
    });
    expect(moved).toEqual(invalid({ post_id: ["must exist"] }));
    const [row] = await server.query<Row>(
      "SELECT * FROM comments WHERE id = ?",
      comment.id as number,
    );
    expect(row).toMatchObject({ post_id: mine, body: "Stay" });
  });

  it("deletes a post's comments with it", async () => {
    const doomed = (await post(user)).id as number;
    const comment = await created("/api/comments", { post_id: doomed, body: "Bye" }, user);
    expect((await api("DELETE", `/api/posts/${doomed}`, { as: user })).status).toBe(204);
    expect(await server.query("SELECT * FROM comments WHERE id = ?", comment.id as number)).toEqual(
      [],
    );
    expect(await api("GET", `/api/comments/${comment.id}`, { as: user })).toEqual(NOT_FOUND);
  });

  it("creates reactions on the owner's posts and comments", async () => {
    const comment = await created("/api/comments", { post_id: mine, body: "Hi" }, user);
    const onPost = await api("POST", "/api/reactions", {
      json: { target_type: "post", target_id: mine, kind: "like" },
      as: user,
    });
    expect(onPost.status).toBe(201);
    expect(onPost.body).toMatchObject({ target_type: "post", target_id: mine, kind: "like" });
    const onComment = await api("POST", "/api/reactions", {
      json: { target_type: "comment", target_id: comment.id, kind: "love" },
      as: user,
    });
    expect(onComment.status).toBe(201);
    expect(onComment.body).toMatchObject({ target_type: "comment", target_id: comment.id });
  });

  it("refuses reactions to targets the owner has not: target_id must exist", async () => {
    const theirComment = await created("/api/comments", { post_id: theirs, body: "x" }, other);
    const before = await count("reactions", user);
    for (const target of [
      { target_type: "post", target_id: theirs },
      { target_type: "post", target_id: 999999 },
      { target_type: "comment", target_id: theirComment.id },
      { target_type: "comment", target_id: 999999 },
    ]) {
      const answer = await api("POST", "/api/reactions", {
        json: { ...target, kind: "like" },
        as: user,
      });
      expect({ target, ...answer }).toEqual({
        target,
        ...invalid({ target_id: ["must exist"] }),
      });
    }
    expect(await count("reactions", user)).toBe(before);
  });

  it("refuses a target type or kind outside its list, and half a pair, with a 400", async () => {
    const prefix = "Failed to deserialize the JSON body into the target type: ";
    const cases: [Row, string][] = [
      [
        { target_type: "user", target_id: mine, kind: "like" },
        "target_type: unknown variant `user`, expected one of `post`, `comment`",
      ],
      [
        { target_type: "post", target_id: mine, kind: "dislike" },
        "kind: unknown variant `dislike`, expected one of `like`, `love`",
      ],
      [{ target_type: "post", kind: "like" }, "missing field `target_id`"],
      [{ target_id: mine, kind: "like" }, "missing field `target_type`"],
    ];
    for (const [json, reason] of cases) {
      expect(await api("POST", "/api/reactions", { json, as: user })).toEqual({
        status: 400,
        body: { error: { code: "bad_request", message: `${prefix}${reason}`, status: 400 } },
      });
    }
  });

  it("refuses to point a reaction at another user's post on update, and keeps it", async () => {
    const reaction = await created(
      "/api/reactions",
      { target_type: "post", target_id: mine, kind: "like" },
      user,
    );
    const moved = await api("PATCH", `/api/reactions/${reaction.id}`, {
      json: { target_type: "post", target_id: theirs },
      as: user,
    });
    expect(moved).toEqual(invalid({ target_id: ["must exist"] }));
    const [row] = await server.query<Row>(
      "SELECT * FROM reactions WHERE id = ?",
      reaction.id as number,
    );
    expect(row).toMatchObject({ target_type: "post", target_id: mine });
  });
});

describe("unique label names", () => {
  it("gives one 201 and only 422s to many simultaneous creates of one name", async () => {
    const user = await signUp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api("POST", "/api/labels", { json: { name: "release" }, as: user }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(422)]);
    for (const answer of answers.filter((each) => each.status === 422)) {
      expect(answer).toEqual(invalid({ name: ["has already been taken"] }));
    }
    const rows = await server.query<Row>("SELECT * FROM labels WHERE user_id = ?", user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.public_id).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const created201 = answers.find((answer) => answer.status === 201)!;
    expect(created201.body).toEqual({
      public_id: rows[0]!.public_id,
      user_id: user.id,
      name: "release",
      color: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("refuses another user a name that is taken, also at the same moment (unique in the table)", async () => {
    const [first, second] = [await signUp(), await signUp()];
    await created("/api/labels", { name: "shared" }, first);
    const later = await api("POST", "/api/labels", { json: { name: "shared" }, as: second });
    expect(later).toEqual(invalid({ name: ["has already been taken"] }));

    const answers = await Promise.all([
      api("POST", "/api/labels", { json: { name: "together" }, as: first }),
      api("POST", "/api/labels", { json: { name: "together" }, as: second }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
    const rows = await server.query<Row>(
      "SELECT user_id FROM labels WHERE name IN ('shared', 'together')",
    );
    expect(rows).toHaveLength(2);
  });

  it("refuses another user a post slug that is taken", async () => {
    const [first, second] = [await signUp(), await signUp()];
    await post(first, { slug: "hello-world" });
    const taken = await api("POST", "/api/posts", {
      json: { title: "Theirs", status: "draft", slug: "hello-world" },
      as: second,
    });
    expect(taken).toEqual(invalid({ slug: ["has already been taken"] }));
    const slugs = await server.query<Row>("SELECT user_id FROM posts WHERE slug = 'hello-world'");
    expect(slugs).toEqual([{ user_id: first.id }]);
  });

  it("refuses renaming a label to a name the owner already has", async () => {
    const user = await signUp();
    await created("/api/labels", { name: "one" }, user);
    const two = await created("/api/labels", { name: "two" }, user);
    const renamed = await api("PATCH", `/api/labels/${two.public_id}`, {
      json: { name: "one" },
      as: user,
    });
    expect(renamed).toEqual(invalid({ name: ["has already been taken"] }));
    const names = await server.query<{ name: string }>(
      "SELECT name FROM labels WHERE user_id = ? ORDER BY id",
      user.id,
    );
    expect(names.map((row) => row.name)).toEqual(["one", "two"]);
  });
});

describe("GET /api/posts pages", () => {
  let user: User;
  let ids: number[];
  beforeAll(async () => {
    user = await signUp();
    ids = [];
    for (let n = 1; n <= 55; n++) ids.push((await post(user, { title: `Post ${n}` })).id as number);
  });
  const page = async (query: string) => {
    const answer = await api("GET", `/api/posts${query}`, { as: user });
    expect(answer.status).toBe(200);
    return answer.body.map((row: Row) => row.id);
  };
  const newestFirst = () => [...ids].reverse();

  it("lists the owner's posts newest first, 50 by default", async () => {
    expect(await page("")).toEqual(newestFirst().slice(0, 50));
  });

  it("follows limit and offset", async () => {
    expect(await page("?limit=100")).toEqual(newestFirst());
    expect(await page("?limit=2")).toEqual(newestFirst().slice(0, 2));
    expect(await page("?limit=2&offset=2")).toEqual(newestFirst().slice(2, 4));
    expect(await page("?offset=50")).toEqual(newestFirst().slice(50));
    expect(await page("?limit=1&offset=54")).toEqual([ids[0]]);
    expect(await page("?offset=55")).toEqual([]);
    expect(await page("?limit=1")).toEqual([ids.at(-1)]);
  });

  it.each(["0", "101", "-1", "abc", "", "1.5", "1e2", "%2B5", "%205", "99999999999999999999"])(
    "refuses limit=%s with a 400 that says so",
    async (limit) => {
      expect(await api("GET", `/api/posts?limit=${limit}`, { as: user })).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: "limit must be an integer from 1 to 100",
            status: 400,
          },
        },
      });
    },
  );

  it.each(["-1", "x", "", "1.5", "%2B1"])(
    "refuses offset=%s with a 400 that says so",
    async (offset) => {
      expect(await api("GET", `/api/posts?offset=${offset}`, { as: user })).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: "offset must be an integer of 0 or more",
            status: 400,
          },
        },
      });
    },
  );
});

describe("the JSON and GraphQL record routes, their document and the cookie session", () => {
  it("never open a session cookie sent along with a bearer token", async () => {
    const user = await signUp();
    const headers = {
      authorization: `Bearer ${user.token}`,
      "content-type": "application/json",
      cookie: "_tessera_session=not-a-sealed-session",
    };
    const listed = await fetch(`${server.url}/api/posts`, { headers });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("set-cookie")).toBeNull();
    const graphql = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "{ notes { id } }" }),
    });
    expect(await graphql.json()).toEqual({ data: { notes: [] } });
    expect(graphql.headers.get("set-cookie")).toBeNull();
    const document = await fetch(`${server.url}/api/openapi.json`, { headers });
    expect(document.status).toBe(200);
    expect(document.headers.get("set-cookie")).toBeNull();
    // A page behind the session reads the same cookie, finds it invalid, and writes a new one
    // with the flash that goes with its redirect to the login page.
    const page = await fetch(`${server.url}/posts`, { headers, redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("set-cookie")).toMatch(/^_tessera_session=[^;]/);
  });
});
