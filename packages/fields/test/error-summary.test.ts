import { html, SafeHtml } from "@tessera/core";
import { describe, expect, it } from "vitest";
import { errorSummaryHtml, renderErrorSummary } from "../src/index.js";

describe("renderErrorSummary", () => {
  it("escapes every message and the field names in the links", () => {
    const summary = renderErrorSummary({
      title: ["can't be blank", "<b>is odd</b>"],
      'x"y': ["is & was"],
    });
    expect(
      summary,
    ).toBe(`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">3 errors stopped this form</h2>
<ul><li><a href="#field-title">Title can&#39;t be blank</a></li><li><a href="#field-title">Title &lt;b&gt;is odd&lt;/b&gt;</a></li><li><a href="#field-x&quot;y">X&quot;y is &amp; was</a></li></ul>
</div>`);
  });

  it("is empty when no field has a message", () => {
    expect(renderErrorSummary({})).toBe("");
    expect(renderErrorSummary({ title: [] })).toBe("");
  });
});

describe("errorSummaryHtml", () => {
  it("is renderErrorSummary's markup as a SafeHtml, which html inserts unescaped", () => {
    const errors = { title: ["<b>is odd</b>"] };
    const summary = errorSummaryHtml(errors);
    expect(summary).toBeInstanceOf(SafeHtml);
    expect(html`<main>${summary}</main>`.toString()).toBe(
      `<main>${renderErrorSummary(errors)}</main>`,
    );
    expect(summary.toString()).toContain("Title &lt;b&gt;is odd&lt;/b&gt;");
  });

  it("is empty when no field has a message", () => {
    expect(errorSummaryHtml({ title: [] }).toString()).toBe("");
  });

  it("starts each sentence with the name fieldName gives, escaped, and links the field's key", () => {
    const summary = errorSummaryHtml({ current_password: ["is incorrect"] }, undefined, (field) =>
      field === "current_password" ? "Mot de passe <actuel>" : field,
    ).toString();
    expect(summary).toContain(
      '<li><a href="#field-current_password">Mot de passe &lt;actuel&gt; is incorrect</a></li>',
    );
  });
});
