// Body caps of the record routes: JSON bodies up to 4 MiB (a 2,000,000-byte text value fits),
// urlencoded forms up to 4 MiB, and only multipart forms up to the larger file cap.
import { sanitizeRichText } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAXIMUM_MULTIPART_BYTES, DEFAULT_MAXIMUM_URLENCODED_BYTES } from "../src/html.js";
import { DEFAULT_MAXIMUM_JSON_BYTES } from "../src/index.js";
import { ADA, envelope, postBody, setUpApp } from "./fixtures.js";

const MiB = 1024 * 1024;
const PREFIX = "Failed to deserialize the JSON body into the target type: ";

describe("JSON record bodies", () => {
  it("are capped at 4 MiB by default", () => {
    expect(DEFAULT_MAXIMUM_JSON_BYTES).toBe(4 * MiB);
  });

  it("take a 1.9 MB string value on create and update and give it back whole", async () => {
    const app = await setUpApp();
    const long = "x".repeat(1_900_000);
    const created = await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: long }));
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    const shown = await app.api(ADA, "GET", `/api/posts/${id}`);
    expect(((await shown.json()) as { title: string }).title).toBe(long);

    const longer = "é".repeat(999_999); // 1,999,998 bytes of UTF-8
    const updated = await app.sendJson(ADA, "PATCH", `/api/posts/${id}`, { title: longer });
    expect(updated.status).toBe(200);
    expect((await app.rows("posts"))[0]?.title).toBe(longer);
  });

  it("answer 400 in the envelope to a body over the cap, and write nothing", async () => {
    const app = await setUpApp();
    const body = JSON.stringify(postBody({ title: "x".repeat(4 * MiB) }));
    const response = await app.api(ADA, "POST", "/api/posts", {
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect(await envelope(response)).toEqual({
      error: {
        code: "bad_request",
        message: `${PREFIX}the body is larger than ${4 * MiB} bytes`,
        status: 400,
      },
    });
    expect(await app.rows("posts")).toEqual([]);
  });

  it("follow the `maximumJsonBytes` option", async () => {
    const app = await setUpApp({ maximumJsonBytes: 1000 });
    const small = await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: "ok" }));
    expect(small.status).toBe(201);
    const large = await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({ title: "x".repeat(1000) }),
    );
    expect(large.status).toBe(400);
    expect((await envelope(large)).error.message).toBe(
      `${PREFIX}the body is larger than 1000 bytes`,
    );
  });
});

describe("HTML forms", () => {
  it("cap urlencoded forms at 4 MiB and multipart forms at 64 MiB by default", () => {
    expect(DEFAULT_MAXIMUM_URLENCODED_BYTES).toBe(4 * MiB);
    expect(DEFAULT_MAXIMUM_MULTIPART_BYTES).toBe(64 * MiB);
  });

  it("answer 413 to an urlencoded form over 4 MiB, before reading a field of it", async () => {
    const app = await setUpApp();
    const form = new URLSearchParams({
      title: "Big",
      status: "draft",
      body: "<b>".repeat(2 * MiB),
    });
    const { response, html } = await app.submit(ADA, "/posts", form);
    expect(response.status).toBe(413);
    expect(html).toContain("The form is larger than 4 MB.");
    expect(await app.rows("posts")).toEqual([]);
  });

  it("refuse a declared oversized form before the record is looked up, with the same 413 page", async () => {
    const app = await setUpApp();
    const form = new URLSearchParams({ title: "Big" });
    // No post 999 exists: without the body limit running first, this would be the 404 page.
    const { response, html } = await app.page(ADA, "POST", "/posts/999", {
      body: form,
      headers: { "Content-Length": String(4 * MiB + 1) },
    });
    expect(response.status).toBe(413);
    expect(html).toContain("The form is larger than 4 MB.");
  });

  it("refuse an oversized rich text value in a form under the cap with the size message", async () => {
    const app = await setUpApp();
    const body = `<p>${"a".repeat(2_000_000)}`;
    const form = new URLSearchParams({ title: "Big", status: "draft", body });
    const { response, html } = await app.submit(ADA, "/posts", form);
    expect(response.status).toBe(422);
    expect(html).toContain("Body is too long (maximum is 2000000 bytes)");
    expect(await app.rows("posts")).toEqual([]);
  });

  it("let a multipart form go over 4 MiB, up to the attachment limit", async () => {
    const app = await setUpApp();
    const form = new FormData();
    form.append("title", "Photo");
    form.append("status", "draft");
    form.append("cover", new File([new Uint8Array(6 * MiB)], "big.png", { type: "image/png" }));
    const { response } = await app.submit(ADA, "/posts", form);
    expect(response.status).toBe(303);
    expect((await app.rows("posts"))[0]).toMatchObject({ title: "Photo", cover_size: 6 * MiB });
  });

  it("refuse a 20 MB text value in a multipart form on its size, without echoing it back", async () => {
    const app = await setUpApp();
    const form = new FormData();
    form.append("title", "Big");
    form.append("status", "draft");
    form.append("body", "<b>".repeat(7_000_000));
    const { response, html } = await app.submit(ADA, "/posts", form);
    expect(response.status).toBe(422);
    expect(html).toContain("Body is too long (maximum is 2000000 bytes)");
    // What was typed comes back, except a value the size limit refused.
    expect(html).toContain('value="Big"');
    expect(html.length).toBeLessThan(100_000);
    expect(await app.rows("posts")).toEqual([]);
  });

  it("follow the `maximumUrlencodedBytes` and `maximumMultipartBytes` options", async () => {
    const app = await setUpApp({ maximumUrlencodedBytes: 1000, maximumMultipartBytes: 2 * MiB });
    const urlencoded = new URLSearchParams({ title: "x".repeat(1000), status: "draft" });
    const refused = await app.submit(ADA, "/posts", urlencoded);
    expect(refused.response.status).toBe(413);
    expect(refused.html).toContain("The form is larger than 1000 bytes.");

    const multipart = new FormData();
    multipart.append("title", "x".repeat(1000));
    multipart.append("status", "draft");
    expect((await app.submit(ADA, "/posts", multipart)).response.status).toBe(303);
    multipart.append("cover", new File([new Uint8Array(3 * MiB)], "a.png", { type: "image/png" }));
    const tooLarge = await app.submit(ADA, "/posts", multipart);
    expect(tooLarge.response.status).toBe(413);
    expect(tooLarge.html).toContain("The form is larger than 2 MB.");
    expect(app.storage.keys()).toEqual([]);
  });
});

describe("multipart bodies of many parts", () => {
  const photos = (form: FormData, count: number) => {
    for (let index = 0; index < count; index += 1) {
      form.append("photos", new File([`png ${index}`], `${index}.png`, { type: "image/png" }));
    }
    return form;
  };
  const post = () => {
    const form = new FormData();
    form.append("title", "Album");
    form.append("status", "draft");
    return form;
  };

  it("take 100 files for one field of a form", async () => {
    const app = await setUpApp();
    const { response } = await app.submit(ADA, "/posts", photos(post(), 100));
    expect(response.status).toBe(303);
    expect(await app.rows("post_photo")).toHaveLength(100);
  });

  it("answer 413 pages to more than 100 files for one field or 1000 parts, storing nothing", async () => {
    const app = await setUpApp();
    const files = await app.submit(ADA, "/posts", photos(post(), 101));
    expect(files.response.status).toBe(413);
    expect(files.html).toContain("The form has more than 100 files for one field.");
    const parts = post();
    for (let index = 0; index < 999; index += 1) parts.append(`extra${index}`, "");
    const fields = await app.submit(ADA, "/posts", parts);
    expect(fields.response.status).toBe(413);
    expect(fields.html).toContain("The form has more than 1000 fields and files.");
    expect(await app.rows("posts")).toEqual([]);
    expect(app.storage.keys()).toEqual([]);
  });

  it("answer an upload with more than 1000 parts, or 100 of one name, with a 413 in the envelope", async () => {
    const app = await setUpApp();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    const many = new FormData();
    many.append("file", new File(["png"], "a.png", { type: "image/png" }));
    for (let index = 0; index < 1000; index += 1) many.append(`part${index}`, "");
    const sameName = photos(new FormData(), 101);
    for (const [form, message] of [
      [many, "The multipart body has more than 1000 parts"],
      [sameName, "The multipart body has more than 100 parts of one name"],
    ] as const) {
      const response = await app.api(ADA, "POST", "/api/posts/1/photos", { body: form });
      expect(response.status).toBe(413);
      expect(await envelope(response)).toEqual({
        error: { code: "too_many_parts", message, status: 413 },
      });
    }
    expect(await app.rows("post_photo")).toEqual([]);
    expect(app.storage.keys()).toEqual([]);
  });
});

describe("a megabyte of rich_text markup", () => {
  // 800 KB, every element left open: sanitized, 1.6 MB.
  const nested = "<b>x".repeat(200_000);

  /** Runs `send` with a 0 ms interval going; how often the interval ran before it answered. */
  async function ticksDuring<T>(send: () => Promise<T>): Promise<{ result: T; ticks: number }> {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 0);
    try {
      const result = await send();
      return { result, ticks };
    } finally {
      clearInterval(interval);
    }
  }

  it("is sanitized between turns of the event loop on JSON create and update", async () => {
    const app = await setUpApp();
    const created = await ticksDuring(() =>
      app.sendJson(ADA, "POST", "/api/posts", postBody({ body: nested })),
    );
    expect(created.result.status).toBe(201);
    expect(created.ticks).toBeGreaterThan(1);
    expect((await app.rows("posts"))[0]?.body).toBe(sanitizeRichText(nested));

    const id = ((await created.result.json()) as { id: number }).id;
    const updated = await ticksDuring(() =>
      app.sendJson(ADA, "PATCH", `/api/posts/${id}`, { body: `<i>${nested}` }),
    );
    expect(updated.result.status).toBe(200);
    expect(updated.ticks).toBeGreaterThan(1);
    expect((await app.rows("posts"))[0]?.body).toBe(sanitizeRichText(`<i>${nested}`));
  });

  it("is sanitized between turns of the event loop from a form, and on the show page", async () => {
    const app = await setUpApp();
    const form = new URLSearchParams({ title: "Long", status: "draft", body: nested });
    const submitted = await ticksDuring(() => app.submit(ADA, "/posts", form));
    expect(submitted.result.response.status).toBe(303);
    expect(submitted.ticks).toBeGreaterThan(1);
    expect((await app.rows("posts"))[0]?.body).toBe(sanitizeRichText(nested));

    // The show page sanitizes the stored HTML again, also a slice at a time.
    const location = submitted.result.response.headers.get("location") ?? "";
    const shown = await ticksDuring(() => app.page(ADA, "GET", location));
    expect(shown.result.response.status).toBe(200);
    expect(shown.ticks).toBeGreaterThan(1);
    expect(shown.result.html).toContain(`<div class="rich-text">${sanitizeRichText(nested)}</div>`);
  });
});
