import { describe, expect, it } from "vitest";
import { type HtmlValue, html, joinHtml, SafeHtml, unsafeHtml } from "../src/index.js";

describe("html", () => {
  it("escapes each of & < > \" ' in an interpolated string", () => {
    const text = `Tom & Jerry <b> "quoted" 'single'`;
    expect(html`<p title="${text}">${text}</p>`.toString()).toBe(
      `<p title="Tom &amp; Jerry &lt;b&gt; &quot;quoted&quot; &#39;single&#39;">` +
        `Tom &amp; Jerry &lt;b&gt; &quot;quoted&quot; &#39;single&#39;</p>`,
    );
  });

  it("keeps the template's own markup and whitespace as written", () => {
    expect(html`<main>\n  <h1>Hi</h1>\n</main>`.toString()).toBe("<main>\n  <h1>Hi</h1>\n</main>");
    expect(html``.toString()).toBe("");
  });

  it("inserts a nested html piece as is, not escaped twice", () => {
    const name = "<Zoë & co>";
    const item = html`<li>${name}</li>`;
    expect(html`<ul>${item}</ul>`.toString()).toBe("<ul><li>&lt;Zoë &amp; co&gt;</li></ul>");
  });

  it("inserts an array's items by the same rules, joined with nothing", () => {
    const names = ["a<", "b&"];
    const nested: HtmlValue = [html`<hr>`, ["c'", null], 1];
    expect(html`<ul>${names.map((name) => html`<li>${name}</li>`)}</ul>`.toString()).toBe(
      "<ul><li>a&lt;</li><li>b&amp;</li></ul>",
    );
    expect(html`${names}|${nested}`.toString()).toBe("a&lt;b&amp;|<hr>c&#39;1");
    expect(html`<ul>${[]}</ul>`.toString()).toBe("<ul></ul>");
  });

  it("gives nothing for null, undefined and false, so a condition can guard a piece", () => {
    const signedIn = false as boolean;
    expect(html`<p>${null}${undefined}${false}</p>`.toString()).toBe("<p></p>");
    expect(html`<nav>${signedIn && html`<a href="/out">Sign out</a>`}</nav>`.toString()).toBe(
      "<nav></nav>",
    );
  });

  it("writes numbers, bigints and true as their text, and keeps an empty string and 0", () => {
    expect(html`${42}|${-1.5}|${10n}|${true}|${0}|${""}|`.toString()).toBe("42|-1.5|10|true|0||");
  });

  it("refuses, at run time, an object that untyped code passes", () => {
    const fromUntypedCode = [new Date(0)] as unknown as HtmlValue[];
    expect(() => html`<p>${fromUntypedCode[0]}</p>`).toThrow(
      new TypeError("html cannot insert a value of type object: format it as text first"),
    );
  });

  it("returns a frozen SafeHtml whose String() is the markup", () => {
    const page = html`<p>${"&"}</p>`;
    expect(page).toBeInstanceOf(SafeHtml);
    expect(Object.isFrozen(page)).toBe(true);
    expect(String(page)).toBe("<p>&amp;</p>");
    expect(`${page}`).toBe("<p>&amp;</p>");
  });
});

describe("joinHtml", () => {
  it("puts the escaped separator between the items, each escaped by html's rules", () => {
    expect(joinHtml(["a&", html`<b>b</b>`, 3], " & ").toString()).toBe(
      "a&amp; &amp; <b>b</b> &amp; 3",
    );
    expect(joinHtml([html`<li>1</li>`, html`<li>2</li>`], "\n").toString()).toBe(
      "<li>1</li>\n<li>2</li>",
    );
    expect(joinHtml([], ", ").toString()).toBe("");
  });

  it("is inserted by html without being escaped again", () => {
    expect(html`<p>${joinHtml(["<a>", "<b>"], ", ")}</p>`.toString()).toBe(
      "<p>&lt;a&gt;, &lt;b&gt;</p>",
    );
  });
});

describe("unsafeHtml", () => {
  it("passes its markup through unescaped, inside html too", () => {
    const sanitized = unsafeHtml(`<p class="rich">Tom &amp; <em>Jerry</em></p>`);
    expect(sanitized.toString()).toBe(`<p class="rich">Tom &amp; <em>Jerry</em></p>`);
    expect(html`<article>${sanitized}</article>`.toString()).toBe(
      `<article><p class="rich">Tom &amp; <em>Jerry</em></p></article>`,
    );
  });
});
