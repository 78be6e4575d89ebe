import { describe, expect, it } from "vitest";
import { renderErrorSummary } from "../src/index.js";

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
