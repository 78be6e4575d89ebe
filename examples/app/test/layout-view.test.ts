// The app's page frame and home page, rendered directly: what reaches them from a request (the
// signed-in email, flashes, a page's title, the CSP nonce) is escaped; a page's main content and
// the catalogs' `_html` messages are markup and go in as they are.
import { describe, expect, it } from "vitest";
import { renderHomePage } from "../src/views/home.js";
import { renderLayout } from "../src/views/layout.js";

const HOSTILE = `<script>alert("x")</script> & 'y'`;
const ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;";

describe("the layout", () => {
  it("escapes the title, the signed-in email and the flashes", () => {
    const page = renderLayout({
      title: HOSTILE,
      mainHtml: `<h1 class="page">Posts &amp; notes</h1>`,
      context: {
        signedInEmail: `ada${HOSTILE}@example.com`,
        flashes: [
          { kind: "notice", message: HOSTILE },
          { kind: "alert", message: "a < b" },
        ],
        cspNonce: undefined,
      },
    });
    expect(page).not.toContain("<script>");
    expect(page).toContain(`<title>${ESCAPED} · Tessera example</title>`);
    expect(page).toContain(`<a href="/account">ada${ESCAPED}@example.com</a>`);
    expect(page).toContain(
      `<div role="status" aria-live="polite"><p class="flash flash-notice">${ESCAPED}</p></div>`,
    );
    expect(page).toContain(`<div role="alert"><p class="flash flash-alert">a &lt; b</p></div>`);
    expect(page).toContain(`</div>\n<h1 class="page">Posts &amp; notes</h1>\n</main>`);
    expect(page).not.toContain("trix");
  });

  it("loads Trix for a page with an editor, the nonce escaped in each of its tags", () => {
    const page = renderLayout({
      title: "New post",
      mainHtml: `<trix-editor id="field-body"></trix-editor>`,
      context: { signedInEmail: undefined, flashes: [], cspNonce: `n"<` },
    });
    expect(page).toContain(`<title>New post · Tessera example</title>
<meta name="csp-nonce" nonce="n&quot;&lt;">
<link rel="stylesheet" href="/assets/trix.css">
<script src="/assets/trix.js" defer nonce="n&quot;&lt;"></script>
<script src="/assets/rich-text.js" defer nonce="n&quot;&lt;"></script>
<link rel="stylesheet" href="/assets/app.css">`);
  });
});

describe("the home page", () => {
  it("writes the catalog's markup as links, for a visitor and for a signed-in user", () => {
    const context = { flashes: [], cspNonce: undefined };
    expect(renderHomePage({ ...context, signedInEmail: undefined })).toContain(
      `<p><a href="/signup">Sign up</a> or <a href="/login">log in</a> to start.</p>`,
    );
    expect(renderHomePage({ ...context, signedInEmail: "ada@example.com" })).toContain(
      `<p>You are signed in. See <a href="/account">your account</a>.</p>`,
    );
  });
});
