import { describe, expect, it } from "vitest";
import { ADA, postBody, setUpApp } from "./fixtures.js";

const VALID_FORM = { title: "Hello", status: "draft", published: "0" };

/** Typed form values refused per field, and the full sentence each earns. */
const REFUSED: ReadonlyArray<readonly [string, string, string]> = [
  ["title", "   ", "Title can&#39;t be blank"],
  ["views", "abc", "Views is not a number"],
  ["views", "9007199254740992", "Views must be less than or equal to 9007199254740991"],
  ["views", "-9007199254740992", "Views must be greater than or equal to -9007199254740991"],
  ["rating", "4,5", "Rating is not a number"],
  ["publish_on", "2023-02-29", "Publish on is not a valid date"],
  ["starts_at", "2024-01-01", "Starts at is not a valid date and time"],
  ["reminder_at", "25:00", "Reminder at is not a valid time"],
  ["price", "1e3", "Price is not a decimal number"],
  ["external_ref", "xyz", "External ref is not a valid UUID"],
  ["metadata", "{oops", "Metadata is not valid JSON"],
  ["status", "archived", "Status is not included in the list"],
];

/** Accepted form text per field, and the stored column value. */
const ACCEPTED: ReadonlyArray<readonly [string, string, unknown]> = [
  ["published", "1", 1],
  ["published", "0", 0],
  ["views", "42", 42],
  ["views", "  ", null],
  ["rating", "2.5", 2.5],
  ["publish_on", "2024-02-29", "2024-02-29"],
  ["starts_at", "2024-01-01T10:00", "2024-01-01T10:00"],
  ["reminder_at", "07:30:15", "07:30:15"],
  ["price", "19.99", "19.99"],
  ["external_ref", "550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000"],
  ["metadata", '{ "a": [1, 2] }', '{"a":[1,2]}'],
  ["metadata", "", null],
  ["body", "<p>Hi<script>x()</script></p>", "<p>Hi</p>"],
  ["status", "published", "published"],
  ["slug", "", null],
];

describe("HTML scaffold of posts", () => {
  it("serves the new form with an input per field", async () => {
    const app = await setUpApp();
    const { response, html } = await app.page(ADA, "GET", "/posts/new");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toContain(
      '<form method="post" action="/posts" enctype="multipart/form-data" novalidate>',
    );
    for (const name of [
      "title",
      "views",
      "rating",
      "publish_on",
      "starts_at",
      "reminder_at",
      "price",
      "external_ref",
      "slug",
    ]) {
      expect(html).toContain(`id="field-${name}" name="${name}"`);
    }
    expect(html).toContain('<textarea id="field-body" name="body"');
    expect(html).toContain('<input type="hidden" name="published" value="0">');
    expect(html).toContain('<option value="draft" selected>draft</option>');
    expect(html).toContain('name="photos" type="file"');
    expect(html).not.toContain("lock_version");
  });

  it.each(ACCEPTED)("stores %s typed as %j as %j", async (field, text, stored) => {
    const app = await setUpApp();
    const { response, session } = await app.submit(
      ADA,
      "/posts",
      new URLSearchParams({ ...VALID_FORM, [field]: text }),
    );
    expect([response.status, response.headers.get("location")]).toEqual([303, "/posts/1"]);
    expect(session.takeFlashes()).toEqual([{ kind: "notice", message: "Post was created." }]);
    expect((await app.rows("posts"))[0]![field]).toEqual(stored);
  });

  it("reads an unchecked checkbox (no value sent) as false", async () => {
    const app = await setUpApp();
    await app.submit(ADA, "/posts", new URLSearchParams({ title: "T", status: "draft" }));
    expect((await app.rows("posts"))[0]!.published).toBe(0);
  });

  it.each(REFUSED)("refuses %s typed as %j: %s", async (field, text, sentence) => {
    const app = await setUpApp();
    const { response, html, session } = await app.submit(
      ADA,
      "/posts",
      new URLSearchParams({ ...VALID_FORM, [field]: text }),
    );
    expect(response.status).toBe(422);
    expect(html).toContain(`<a href="#field-${field}">${sentence}</a>`);
    expect(html).toContain(
      `<ul class="field-errors" id="field-${field}-errors"><li>${sentence}</li></ul>`,
    );
    expect(html).toContain('aria-invalid="true"');
    expect(session.takeFlashes()).toEqual([]);
    expect(await app.rows("posts")).toEqual([]);
  });

  it("re-renders every message at once and keeps everything that was typed", async () => {
    const app = await setUpApp();
    const typed = {
      title: "",
      views: "many",
      rating: "4.5",
      metadata: '{"kept": "<b>"}',
      body: "<p>draft body</p>",
      published: "1",
      status: "review",
      reminder_at: "99:99",
    };
    const { response, html } = await app.submit(ADA, "/posts", new URLSearchParams(typed));
    expect(response.status).toBe(422);
    expect(html).toContain("3 errors stopped this form");
    expect(html).toContain('value="many"');
    expect(html).toContain('value="4.5"');
    expect(html).toContain("{&quot;kept&quot;: &quot;&lt;b&gt;&quot;}</textarea>");
    expect(html).toContain("&lt;p&gt;draft body&lt;/p&gt;</textarea>");
    expect(html).toContain('type="checkbox" value="1" checked');
    expect(html).toContain('<option value="review" selected>review</option>');
    expect(html).toContain('value="99:99"');
  });

  it("shows a record with its values escaped, rich text sanitized and json pretty-printed", async () => {
    const app = await setUpApp();
    await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({
        title: "<script>alert(1)</script>",
        body: "<p><strong>Bold</strong></p>",
        published: true,
        metadata: { a: 1 },
      }),
    );
    const { response, html } = await app.page(ADA, "GET", "/posts/1");
    expect(response.status).toBe(200);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain('<div class="rich-text"><p><strong>Bold</strong></p></div>');
    expect(html).toContain("<dt>Published</dt><dd>Yes</dd>");
    expect(html).toContain(`<pre><code>{\n  &quot;a&quot;: 1\n}</code></pre>`);
    expect(html).toContain('<form method="post" action="/posts/1/delete">');
  });

  it("prefills the edit form from the stored row", async () => {
    const app = await setUpApp();
    await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({
        published: true,
        starts_at: "2024-05-01 09:30",
        metadata: [1],
        status: "review",
        views: 12,
      }),
    );
    const { html } = await app.page(ADA, "GET", "/posts/1/edit");
    expect(html).toContain(
      '<form method="post" action="/posts/1" enctype="multipart/form-data" novalidate>',
    );
    expect(html).toContain('type="checkbox" value="1" checked');
    expect(html).toContain(
      'name="starts_at" type="datetime-local" step="1" value="2024-05-01T09:30"',
    );
    expect(html).toContain('name="views" type="text" inputmode="numeric" value="12"');
    expect(html).toContain(">[1]</textarea>");
    expect(html).toContain('<option value="review" selected>review</option>');
  });

  it("updates with a 303 and a flash, or re-renders with 422", async () => {
    const app = await setUpApp();
    await app.sendJson(ADA, "POST", "/api/posts", postBody({ views: 1, published: true }));
    const refused = await app.submit(
      ADA,
      "/posts/1",
      new URLSearchParams({ title: "", views: "x", lock_version: "0" }),
    );
    expect(refused.response.status).toBe(422);
    expect(refused.html).toContain("Title can&#39;t be blank");
    expect(refused.html).toContain("Views is not a number");
    expect(refused.html).toContain('<form method="post" action="/posts/1"');

    const form = new URLSearchParams({ title: "Renamed", published: "0", lock_version: "0" });
    const { response, session } = await app.submit(ADA, "/posts/1", form);
    expect([response.status, response.headers.get("location")]).toEqual([303, "/posts/1"]);
    expect(session.takeFlashes()).toEqual([{ kind: "notice", message: "Post was updated." }]);
    // Inputs not sent keep their values; the checkbox's hidden 0 unchecks.
    expect((await app.rows("posts"))[0]).toMatchObject({
      title: "Renamed",
      views: 1,
      published: 0,
      lock_version: 1,
    });
  });

  it("answers 404 pages for records that do not exist", async () => {
    const app = await setUpApp();
    for (const path of ["/posts/1", "/posts/1/edit", "/posts/x"]) {
      const { response, html } = await app.page(ADA, "GET", path);
      expect(response.status).toBe(404);
      expect(html).toContain("<h1>Not found</h1>");
    }
  });

  it("lists the owner's records with links, or says there are none", async () => {
    const app = await setUpApp();
    expect((await app.page(ADA, "GET", "/posts")).html).toContain("No posts yet.");
    await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: "A & B" }));
    const { html } = await app.page(ADA, "GET", "/posts");
    expect(html).toContain("<td>A &amp; B</td>");
    expect(html).toContain('<a href="/posts/1">Show</a>');
    expect(html).toContain('<a href="/posts/new">New post</a>');
  });

  it("answers 400 to a body that is not a form, and 413 to one over the cap", async () => {
    const app = await setUpApp();
    const json = await app.page(ADA, "POST", "/posts", {
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(json.response.status).toBe(400);
    expect(json.html).toContain("The form could not be read.");

    const small = await setUpApp({ maximumMultipartBytes: 1024 * 1024 });
    const form = new FormData();
    form.append("title", "Big");
    form.append(
      "cover",
      new File([new Uint8Array(2 * 1024 * 1024)], "big.png", { type: "image/png" }),
    );
    const tooLarge = await small.submit(ADA, "/posts", form);
    expect(tooLarge.response.status).toBe(413);
    expect(tooLarge.html).toContain("The form is larger than 1 MB.");
    expect(small.storage.keys()).toEqual([]);
  });
});
