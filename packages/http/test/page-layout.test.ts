import { describe, expect, it } from "vitest";
import { plainLayout } from "../src/index.js";

describe("plainLayout", () => {
  it("escapes the title, the flashes and the language, and writes the main HTML as it is", () => {
    const page = plainLayout({
      title: `Tom & "Jerry"`,
      mainHtml: `<h1>Hi</h1>\n<p class="x">&amp;</p>`,
      context: {
        signedInEmail: undefined,
        flashes: [
          { kind: "alert", message: "<script>alert(1)</script>" },
          { kind: "notice", message: "Saved 'it'" },
          { kind: "notice", message: "a < b" },
        ],
        cspNonce: undefined,
        locale: { tag: `fr"><x`, catalog: {} },
      },
    });
    expect(page).toBe(`<!doctype html>
<html lang="fr&quot;&gt;&lt;x">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tom &amp; &quot;Jerry&quot;</title>
</head>
<body>
<div role="status" aria-live="polite"><p>Saved &#39;it&#39;</p><p>a &lt; b</p></div>
<div role="alert"><p>&lt;script&gt;alert(1)&lt;/script&gt;</p></div>
<main>
<h1>Hi</h1>
<p class="x">&amp;</p>
</main>
</body>
</html>`);
  });

  it("shows who an operator acts as, escaped and translated, with the form that stops", () => {
    const page = (impersonating: boolean, catalog: Record<string, string> = {}) =>
      plainLayout({
        title: "Account",
        mainHtml: "<p>Hi</p>",
        context: {
          signedInEmail: `<b>@example.com`,
          impersonating,
          flashes: [],
          cspNonce: undefined,
          locale: { tag: "fr", catalog },
        },
      });
    expect(page(true)).toContain(`<body><div class="impersonation-banner" role="note">
<p>You are acting as &lt;b&gt;@example.com, as an administrator.</p>
<form method="post" action="/admin/impersonation/stop"><button type="submit">Stop acting as this user</button></form>
</div>
<div role="status"`);
    const french = page(true, { "http.stop_impersonating": "Cesser" });
    expect(french).toContain(`<button type="submit">Cesser</button>`);
    expect(page(false)).not.toContain("impersonation");
  });
});
