// The HTML record pages of the example app, submitted as a browser submits them (cookie
// session, same-origin form posts, urlencoded or multipart) over real HTTP.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type BrowserResponse, pageText } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let uploads: string;

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), "tessera-html-uploads-"));
  server = await startTestServer({ TRUST_PROXY: "1", UPLOADS_PATH: uploads });
});
afterAll(async () => {
  await server.stop();
  rmSync(uploads, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
type Pairs = [string, string][];
type Entries = [string, string | File][];
let counter = 0;

async function signedIn(): Promise<Browser> {
  const browser = new Browser(server.url);
  const email = `pages${++counter}.${Date.now()}@example.com`;
  const response = await browser.post("/signup", { email, password: "correct horse battery" });
  expect(response.status).toBe(303);
  return browser;
}

/** Posts a urlencoded form whose names may repeat (a checkbox after its hidden `0`). */
function submit(browser: Browser, path: string, entries: Pairs): Promise<BrowserResponse> {
  const form = new URLSearchParams(entries);
  return browser.request("POST", path, form.toString());
}

/** Posts a multipart form, as the posts form does (`enctype="multipart/form-data"`). */
async function submitMultipart(
  browser: Browser,
  path: string,
  entries: Entries,
): Promise<BrowserResponse> {
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "x-forwarded-for": browser.clientAddress,
      "sec-fetch-site": "same-origin",
      cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    },
    body: form,
    redirect: "manual",
  });
  // The session cookie carries the flash: keep what the answer sets, as a browser would.
  for (const header of response.headers.getSetCookie()) {
    const [pair = ""] = header.split(";");
    const [name = "", value = ""] = pair.split(/=(.*)/s);
    if (value === "" || /max-age=0/i.test(header)) browser.cookies.delete(name.trim());
    else browser.cookies.set(name.trim(), value);
  }
  const location = response.headers.get("location");
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    location: location === null ? undefined : new URL(location, server.url).pathname,
  };
}

const postRows = () => server.query<Row>("SELECT * FROM posts ORDER BY id");
const postRow = async (id: number) =>
  (await server.query<Row>("SELECT * FROM posts WHERE id = ?", id))[0];
const filesOnDisk = () => (existsSync(uploads) ? readdirSync(uploads).sort() : []);
const idIn = (location: string | undefined) => Number(location?.match(/^\/posts\/(\d+)$/)?.[1]);

/** A post's form as a person fills it in: every input of the page, optional ones left blank. */
function postForm(overrides: Record<string, string> = {}): Pairs {
  const values: Record<string, string> = {
    title: "Hello from a form",
    body: "",
    views: "",
    rating: "",
    publish_on: "",
    starts_at: "",
    reminder_at: "",
    price: "",
    external_ref: "",
    metadata: "",
    status: "draft",
    slug: "",
    ...overrides,
  };
  return [["published", "0"], ...Object.entries(values)];
}

async function createdPost(browser: Browser, overrides: Record<string, string> = {}) {
  const response = await submit(browser, "/posts", postForm(overrides));
  expect(response.status).toBe(303);
  return idIn(response.location);
}

describe("a signed-out visitor", () => {
  it.each([
    ["GET", "/posts"],
    ["GET", "/posts/new"],
    ["GET", "/posts/1"],
    ["GET", "/posts/1/edit"],
    ["GET", "/posts/1/cover"],
    ["POST", "/posts"],
    ["POST", "/posts/1"],
    ["POST", "/posts/1/delete"],
    ["GET", "/labels"],
  ])("is sent to /login (303) from %s %s", async (method, path) => {
    const before = await postRows();
    const visitor = new Browser(server.url);
    const body = method === "POST" ? new URLSearchParams(postForm()).toString() : undefined;
    const response = await visitor.request(method, path, body);
    expect(response.status).toBe(303);
    expect(response.location).toBe("/login");
    const login = await visitor.follow(response);
    expect(pageText(login.html)).toContain("Please log in to continue.");
    expect(await postRows()).toEqual(before);
  });
});

describe("the new post form", () => {
  it("has a labelled input for every field, multipart for the files", async () => {
    const browser = await signedIn();
    const page = await browser.get("/posts/new");
    expect(page.status).toBe(200);
    expect(page.html).toContain(
      '<form method="post" action="/posts" enctype="multipart/form-data" novalidate>',
    );
    for (const [name, label] of [
      ["title", "Title"],
      ["published", "Published"],
      ["publish_on", "Publish on"],
      ["starts_at", "Starts at"],
      ["external_ref", "External ref"],
      ["cover", "Cover"],
      ["photos", "Photos"],
    ]) {
      expect(page.html).toContain(`<label for="field-${name}">${label}</label>`);
    }
    expect(page.html).toContain('<input type="hidden" name="published" value="0">');
    expect(page.html).toContain('type="checkbox" value="1">');
    expect(page.html).toContain('<option value="draft" selected>draft</option>');
    expect(page.html).toMatch(/id="field-views" name="views"[^>]* inputmode="numeric"/);
    expect(page.html).toMatch(/id="field-publish_on" name="publish_on"[^>]* type="date"/);
    expect(page.html).toMatch(/id="field-photos" name="photos"[^>]* type="file"[^>]* multiple/);
    expect(page.html).not.toContain('name="lock_version"');
    // rich_text is edited in Trix: a hidden input carries the HTML, the editor is labelled.
    expect(page.html).toContain(`<label for="field-body" id="field-body-label">Body</label>
<input type="hidden" id="field-body-input" name="body" value="">
<trix-editor id="field-body" input="field-body-input" aria-labelledby="field-body-label" class="rich-text-editor"></trix-editor>`);
  });

  it("loads Trix, from the app itself, only on pages with a rich-text editor", async () => {
    const browser = await signedIn();
    const form = await browser.get("/posts/new");
    // The scripts carry the page's CSP nonce (page-headers.test.ts checks it is the policy's).
    const nonce = /'nonce-([^']+)'/.exec(form.headers.get("content-security-policy") ?? "")?.[1];
    const head = `<meta name="csp-nonce" nonce="${nonce}">
<link rel="stylesheet" href="/assets/trix.css">
<script src="/assets/trix.js" defer nonce="${nonce}"></script>
<script src="/assets/rich-text.js" defer nonce="${nonce}"></script>
<link rel="stylesheet" href="/assets/app.css">`;
    expect(form.html).toContain(head);
    for (const path of ["/posts", "/labels/new", "/comments/new", "/account"]) {
      const page = await browser.get(path);
      expect([path, page.status, page.html.includes("trix")]).toEqual([path, 200, false]);
    }
  });
});

describe("creating a post from the form", () => {
  it("re-renders (422) with every message as a sentence, keeping what was typed", async () => {
    const browser = await signedIn();
    const before = await postRows();
    const page = await submit(
      browser,
      "/posts",
      postForm({
        title: "   ",
        body: "<p>Kept body</p>",
        views: "abc",
        rating: "four",
        publish_on: "2023-02-30",
        starts_at: "2024-02-29",
        reminder_at: "25:00",
        price: "1e3",
        external_ref: "not-a-uuid",
        metadata: "{bad json",
        status: "archived",
        slug: "my-slug",
      }),
    );
    expect(page.status).toBe(422);
    const text = pageText(page.html);
    expect(text).toContain("10 errors stopped this form");
    for (const sentence of [
      "Title can't be blank",
      "Views is not a number",
      "Rating is not a number",
      "Publish on is not a valid date",
      "Starts at is not a valid date and time",
      "Reminder at is not a valid time",
      "Price is not a decimal number",
      "External ref is not a valid UUID",
      "Metadata is not valid JSON",
      "Status is not included in the list",
    ]) {
      expect(text).toContain(sentence);
    }
    expect(page.html).toContain('<a href="#field-views">Views is not a number</a>');
    expect(page.html).toContain('aria-invalid="true" aria-describedby="field-views-errors"');
    for (const typed of ["abc", "four", "2023-02-30", "25:00", "1e3", "not-a-uuid", "my-slug"]) {
      expect(page.html).toContain(`value="${typed}"`);
    }
    expect(page.html).toContain(
      '<input type="hidden" id="field-body-input" name="body" value="&lt;p&gt;Kept body&lt;/p&gt;">',
    );
    expect(page.html).toContain("{bad json</textarea>");
    expect(await postRows()).toEqual(before);
  });

  it("creates it: 303 to the post, the flash, unchecked false, blanks null", async () => {
    const browser = await signedIn();
    const response = await submit(
      browser,
      "/posts",
      postForm({
        title: "Saved",
        body: "<p>Hello <em>you</em></p><script>x()</script>",
        views: "42",
        rating: "4.5",
        publish_on: "2024-02-29",
        starts_at: "2024-02-29T13:05:09",
        reminder_at: "09:30",
        price: "-12.50",
        metadata: '{"tags": ["a"]}',
        status: "review",
        slug: "   ",
        external_ref: "  ",
      }),
    );
    expect(response.status).toBe(303);
    const id = idIn(response.location);
    expect(await postRow(id)).toMatchObject({
      title: "Saved",
      body: "<p>Hello <em>you</em></p>",
      published: 0,
      views: 42,
      rating: 4.5,
      publish_on: "2024-02-29",
      starts_at: "2024-02-29T13:05:09",
      reminder_at: "09:30",
      price: "-12.50",
      metadata: '{"tags":["a"]}',
      status: "review",
      slug: null,
      external_ref: null,
      cover_key: null,
      lock_version: 0,
    });
    const show = await browser.follow(response);
    expect(show.status).toBe(200);
    const text = pageText(show.html);
    expect(text).toContain("Post was created.");
    expect(text).toContain("Title Saved");
    expect(show.html).toContain('<div class="rich-text"><p>Hello <em>you</em></p></div>');
    // The flash is shown once.
    expect(pageText((await browser.get(`/posts/${id}`)).html)).not.toContain("Post was created.");
  });

  it("stores null for every optional field left blank or whitespace", async () => {
    const browser = await signedIn();
    const id = await createdPost(browser, { rating: " ", price: "\t", metadata: "  " });
    expect(await postRow(id)).toMatchObject({
      body: null,
      views: null,
      rating: null,
      publish_on: null,
      starts_at: null,
      reminder_at: null,
      price: null,
      external_ref: null,
      metadata: null,
      slug: null,
    });
  });

  it("reads a checked checkbox (the hidden 0, then 1) as true", async () => {
    const browser = await signedIn();
    const response = await submit(browser, "/posts", [...postForm(), ["published", "1"]]);
    expect(response.status).toBe(303);
    expect((await postRow(idIn(response.location)))?.published).toBe(1);
  });

  it("uploads the cover and photos of a multipart form, and serves them", async () => {
    const browser = await signedIn();
    const response = await submitMultipart(browser, "/posts", [
      ...postForm({ title: "With files" }),
      ["cover", new File(["cover bytes"], "cover.png", { type: "image/png" })],
      ["photos", new File(["one"], "one.jpg", { type: "image/jpeg" })],
      ["photos", new File(["two"], "two.txt", { type: "text/plain" })],
    ]);
    expect(response.status).toBe(303);
    const id = idIn(response.location);
    const row = (await postRow(id))!;
    expect(row).toMatchObject({ title: "With files", cover_filename: "cover.png", cover_size: 11 });
    const photos = await server.query<Row>(
      "SELECT * FROM post_photo WHERE post_id = ? ORDER BY id",
      id,
    );
    expect(photos.map((photo) => photo.photo_filename)).toEqual(["one.jpg", "two.txt"]);
    expect(filesOnDisk()).toEqual(expect.arrayContaining([row.cover_key, photos[0]!.photo_key]));

    const show = await browser.follow(response);
    expect(pageText(show.html)).toContain("Post was created.");
    expect(show.html).toContain(`<a href="/posts/${id}/cover" download>cover.png</a>`);
    expect(show.html).toContain(
      `<a href="/posts/${id}/photos/${photos[1]!.id}" download>two.txt</a>`,
    );
    const cover = await browser.get(`/posts/${id}/cover`);
    expect(cover.status).toBe(200);
    expect(cover.html).toBe("cover bytes");
    expect(cover.headers.get("content-disposition")).toBe(
      `attachment; filename="cover.png"; filename*=UTF-8''cover.png`,
    );
    const photo = await browser.get(`/posts/${id}/photos/${photos[1]!.id}`);
    expect(photo.html).toBe("two");
  });

  it("refuses a cover of the wrong type, storing nothing, and keeps the typed fields", async () => {
    const browser = await signedIn();
    const before = { rows: await postRows(), files: filesOnDisk() };
    const page = await submitMultipart(browser, "/posts", [
      ...postForm({ title: "Typed title" }),
      ["cover", new File(["<script>"], "page.html", { type: "text/html" })],
    ]);
    expect(page.status).toBe(422);
    expect(pageText(page.html)).toContain(
      "Cover has an unsupported type (allowed: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain)",
    );
    expect(page.html).toContain('value="Typed title"');
    expect({ rows: await postRows(), files: filesOnDisk() }).toEqual(before);
  });
  it("refuses a cover over 10 MB with the sentence, storing nothing", async () => {
    const browser = await signedIn();
    const before = { rows: await postRows(), files: filesOnDisk() };
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
    const page = await submitMultipart(browser, "/posts", [...postForm(), ["cover", big]]);
    expect(page.status).toBe(422);
    expect(pageText(page.html)).toContain("Cover is too large (maximum is 10 MB)");
    expect({ rows: await postRows(), files: filesOnDisk() }).toEqual(before);
  });
});

describe("editing a post", () => {
  it("shows the stored values, the version hidden, and the checkbox state", async () => {
    const browser = await signedIn();
    const response = await submit(browser, "/posts", [
      ...postForm({ title: "Editable", starts_at: "2024-02-29 13:05", views: "7" }),
      ["published", "1"],
    ]);
    const id = idIn(response.location);
    const page = await browser.get(`/posts/${id}/edit`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<form method="post" action="/posts/${id}"`);
    expect(page.html).toContain('<input type="hidden" name="lock_version" value="0">');
    expect(page.html).toContain('value="Editable"');
    expect(page.html).toContain('value="7"');
    expect(page.html).toContain('value="2024-02-29T13:05"');
    expect(page.html).toContain('type="checkbox" value="1" checked>');
  });

  it("updates it: 303 to the post with the flash; unchecked is false, blank clears", async () => {
    const browser = await signedIn();
    const response = await submit(browser, "/posts", [
      ...postForm({ title: "Before", views: "7", slug: "before" }),
      ["published", "1"],
    ]);
    const id = idIn(response.location);
    const updated = await submit(browser, `/posts/${id}`, [
      ["lock_version", "0"],
      ...postForm({ title: "After", views: "", slug: "" }),
    ]);
    expect(updated.status).toBe(303);
    expect(updated.location).toBe(`/posts/${id}`);
    expect(await postRow(id)).toMatchObject({
      title: "After",
      published: 0,
      views: null,
      slug: null,
      lock_version: 1,
    });
    const show = await browser.follow(updated);
    expect(pageText(show.html)).toContain("Post was updated.");
  });

  it("re-renders a refused update (422) with the typed values and changes nothing", async () => {
    const browser = await signedIn();
    const id = await createdPost(browser, { title: "Stored" });
    const before = await postRow(id);
    const page = await submit(browser, `/posts/${id}`, [
      ["lock_version", "0"],
      ...postForm({ title: "", views: "1.5", metadata: "[1,", reminder_at: "7pm" }),
    ]);
    expect(page.status).toBe(422);
    const text = pageText(page.html);
    expect(text).toContain("4 errors stopped this form");
    expect(text).toContain("Title can't be blank");
    expect(text).toContain("Views is not a number");
    expect(text).toContain("Metadata is not valid JSON");
    expect(text).toContain("Reminder at is not a valid time");
    expect(page.html).toContain('value="1.5"');
    expect(page.html).toContain('value="7pm"');
    expect(page.html).toContain("[1,</textarea>");
    expect(page.html).toContain('<input type="hidden" name="lock_version" value="0">');
    expect(await postRow(id)).toEqual(before);
  });

  it("answers 409 to a stale version, keeping what was typed", async () => {
    const browser = await signedIn();
    const id = await createdPost(browser, { title: "Original" });
    const first = await submit(browser, `/posts/${id}`, [
      ["lock_version", "0"],
      ...postForm({ title: "First edit" }),
    ]);
    expect(first.status).toBe(303);
    const before = await postRow(id);
    const late = await submit(browser, `/posts/${id}`, [
      ["lock_version", "0"],
      ...postForm({ title: "Second edit" }),
    ]);
    expect(late.status).toBe(409);
    expect(pageText(late.html)).toContain(
      "This record was changed by someone else: reload it and try again",
    );
    expect(late.html).toContain('value="Second edit"');
    expect(await postRow(id)).toEqual(before);
  });
});

describe("deleting a post", () => {
  it("deletes it and its files, then 303 to the listing with the flash", async () => {
    const browser = await signedIn();
    const created = await submitMultipart(browser, "/posts", [
      ...postForm({ title: "Doomed" }),
      ["cover", new File(["c"], "c.png", { type: "image/png" })],
      ["photos", new File(["p"], "p.png", { type: "image/png" })],
    ]);
    const id = idIn(created.location);
    const keys = [
      (await postRow(id))!.cover_key,
      ...(
        await server.query<{ photo_key: string }>(
          "SELECT photo_key FROM post_photo WHERE post_id = ?",
          id,
        )
      ).map((row) => row.photo_key),
    ];
    expect(filesOnDisk()).toEqual(expect.arrayContaining(keys));

    const deleted = await submit(browser, `/posts/${id}/delete`, []);
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/posts");
    expect(await postRow(id)).toBeUndefined();
    for (const key of keys) expect(filesOnDisk()).not.toContain(key);
    const listing = await browser.follow(deleted);
    const text = pageText(listing.html);
    expect(text).toContain("Post was deleted.");
    expect(text).toContain("No posts yet.");
  });
});

describe("the posts listing", () => {
  it("shows the owner's posts newest first, with a link to each", async () => {
    const browser = await signedIn();
    const ids = [
      await createdPost(browser, { title: "Oldest" }),
      await createdPost(browser, { title: "Middle" }),
      await createdPost(browser, { title: "Newest" }),
    ];
    const page = await browser.get("/posts");
    expect(page.status).toBe(200);
    const text = pageText(page.html);
    expect(text.indexOf("Newest")).toBeLessThan(text.indexOf("Middle"));
    expect(text.indexOf("Middle")).toBeLessThan(text.indexOf("Oldest"));
    for (const id of ids) expect(page.html).toContain(`<a href="/posts/${id}">Show</a>`);
    const bad = await browser.get("/posts?limit=0");
    expect(bad.status).toBe(400);
    expect(pageText(bad.html)).toContain("limit must be an integer from 1 to 100.");
  });
});

describe("another user's post", () => {
  it("is a 404 page on every route, and nothing changes", async () => {
    const owner = await signedIn();
    const created = await submitMultipart(owner, "/posts", [
      ...postForm({ title: "Private" }),
      ["cover", new File(["secret"], "secret.png", { type: "image/png" })],
      ["photos", new File(["secret"], "secret.jpg", { type: "image/jpeg" })],
    ]);
    const id = idIn(created.location);
    const [photo] = await server.query<{ id: number }>(
      "SELECT id FROM post_photo WHERE post_id = ?",
      id,
    );
    const stranger = await signedIn();
    const before = { row: await postRow(id), files: filesOnDisk() };

    const answers = [
      await stranger.get(`/posts/${id}`),
      await stranger.get(`/posts/${id}/edit`),
      await stranger.get(`/posts/${id}/cover`),
      await stranger.get(`/posts/${id}/photos/${photo!.id}`),
      await submit(stranger, `/posts/${id}`, postForm({ title: "Taken over" })),
      await submit(stranger, `/posts/${id}/delete`, []),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(pageText(answer.html)).toContain("There is no such record.");
      expect(answer.html).not.toContain("secret");
    }
    expect({ row: await postRow(id), files: filesOnDisk() }).toEqual(before);
    expect(pageText((await stranger.get("/posts")).html)).not.toContain("Private");
  });
});

describe("the other resources' forms", () => {
  it("comments: Post must exist for another user's post or none, Post is not a number", async () => {
    const other = await signedIn();
    const theirs = await createdPost(other);
    const browser = await signedIn();
    const mine = await createdPost(browser);
    const before = await server.query("SELECT * FROM comments");
    for (const [postId, sentence] of [
      [String(theirs), "Post must exist"],
      ["999999", "Post must exist"],
      ["", "Post must exist"],
      ["abc", "Post is not a number"],
    ] as const) {
      const page = await submit(browser, "/comments", [
        ["post_id", postId],
        ["body", "A comment"],
      ]);
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain(sentence);
      expect(page.html).toContain(`value="${postId}"`);
    }
    expect(await server.query("SELECT * FROM comments")).toEqual(before);

    const created = await submit(browser, "/comments", [
      ["post_id", String(mine)],
      ["body", "A comment"],
    ]);
    expect(created.status).toBe(303);
    expect(pageText((await browser.follow(created)).html)).toContain("Comment was created.");
  });

  it("labels: Name has already been taken, and the public id in the address", async () => {
    const browser = await signedIn();
    const created = await submit(browser, "/labels", [
      ["name", "urgent"],
      ["color", ""],
    ]);
    expect(created.status).toBe(303);
    const [row] = await server.query<{ public_id: string; color: unknown }>(
      "SELECT public_id, color FROM labels ORDER BY id DESC LIMIT 1",
    );
    expect(created.location).toBe(`/labels/${row!.public_id}`);
    expect(row!.color).toBeNull();
    const duplicate = await submit(browser, "/labels", [["name", "urgent"]]);
    expect(duplicate.status).toBe(422);
    expect(pageText(duplicate.html)).toContain("Name has already been taken");
  });

  it("reactions: Target type is not included in the list, Kind is not included in the list", async () => {
    const browser = await signedIn();
    const page = await submit(browser, "/reactions", [
      ["target_type", "user"],
      ["target_id", "1"],
      ["kind", "meh"],
    ]);
    expect(page.status).toBe(422);
    const text = pageText(page.html);
    expect(text).toContain("Target type is not included in the list");
    expect(text).toContain("Kind is not included in the list");
  });
});

describe("cross-site form posts", () => {
  it("are refused (403) before they reach the record pages", async () => {
    const browser = await signedIn();
    const before = await postRows();
    const response = await browser.request(
      "POST",
      "/posts",
      new URLSearchParams(postForm()).toString(),
      { "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
    expect(await postRows()).toEqual(before);
  });
});
