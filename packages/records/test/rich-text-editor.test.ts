// `richTextEditor: "trix"`: rich_text fields are edited in a Trix editor bound to a hidden input
// that carries the HTML; the default stays a textarea.
import { parseDeclaration } from "@tessera/fields";
import { describe, expect, it } from "vitest";
import { renderFieldInputs } from "../src/html.js";
import { ADA, postBody, setUpApp } from "./fixtures.js";

const EDITOR =
  '<input type="hidden" id="field-body-input" name="body" value="">\n<trix-editor id="field-body" input="field-body-input" aria-labelledby="field-body-label" class="rich-text-editor"></trix-editor>';

describe("the Trix editor for rich_text fields", () => {
  it("renders a labelled editor bound to a hidden input on the new form", async () => {
    const app = await setUpApp({ richTextEditor: "trix" });
    const { response, html } = await app.page(ADA, "GET", "/posts/new");
    expect(response.status).toBe(200);
    expect(html).toContain(`<label for="field-body" id="field-body-label">Body</label>\n${EDITOR}`);
    expect(html).not.toContain('<textarea id="field-body"');
    // Other long text inputs stay textareas.
    expect(html).toContain('<textarea id="field-metadata" name="metadata"');
  });

  it("puts the stored HTML in the hidden input of the edit form", async () => {
    const app = await setUpApp({ richTextEditor: "trix" });
    await app.sendJson(
      ADA,
      "POST",
      "/api/posts",
      postBody({ body: '<p>Hi <a href="/x">"you"</a></p>' }),
    );
    const { html } = await app.page(ADA, "GET", "/posts/1/edit");
    expect(html).toContain(
      '<input type="hidden" id="field-body-input" name="body" value="&lt;p&gt;Hi &lt;a href=&quot;/x&quot;&gt;&quot;you&quot;&lt;/a&gt;&lt;/p&gt;">',
    );
  });

  it("keeps the typed HTML after a refusal, and saves what the hidden input sends", async () => {
    const app = await setUpApp({ richTextEditor: "trix" });
    const typed = "<div>Some <strong>bold</strong> text</div>";
    const refused = await app.submit(
      ADA,
      "/posts",
      new URLSearchParams({ title: "", status: "draft", body: typed }),
    );
    expect(refused.response.status).toBe(422);
    expect(refused.html).toContain(
      'value="&lt;div&gt;Some &lt;strong&gt;bold&lt;/strong&gt; text&lt;/div&gt;"',
    );
    const saved = await app.submit(
      ADA,
      "/posts",
      new URLSearchParams({ title: "T", status: "draft", body: typed }),
    );
    expect(saved.response.status).toBe(303);
    expect((await app.rows("posts"))[0]!.body).toBe(typed);
  });

  it("marks the editor required and invalid with its messages", () => {
    const parsed = parseDeclaration("body:rich_text");
    if (!parsed.ok) throw new Error(parsed.reason);
    const html = renderFieldInputs(
      parsed.value,
      { values: { body: "<p> </p>" }, errors: { body: ["can't be blank"] } },
      undefined,
      "trix",
    );
    expect(html).toContain(
      '<trix-editor id="field-body" input="field-body-input" aria-labelledby="field-body-label" class="rich-text-editor" aria-invalid="true" aria-describedby="field-body-errors" required></trix-editor>',
    );
    expect(html).toContain(
      '<ul class="field-errors" id="field-body-errors"><li>Body can&#39;t be blank</li></ul>',
    );
  });

  it("keeps a textarea by default", async () => {
    const app = await setUpApp();
    const { html } = await app.page(ADA, "GET", "/posts/new");
    expect(html).toContain('<textarea id="field-body" name="body" rows="8"></textarea>');
    expect(html).not.toContain("trix-editor");
  });
});
