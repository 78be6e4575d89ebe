// Properties of the sanitizer on any input: idempotent, the same sliced as whole, and the
// no-markup fast path exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HtmlReading } from "../src/html-reader.js";
import { RICH_TEXT_SLICE, sanitizeRichText, sanitizeRichTextAsync } from "../src/index.js";

/** Tag soup: wrappers, stray closers, links, images, entities and cut-off attributes. */
const tagSoupToken = fc.constantFrom(
  "<p>",
  "</p>",
  "<div>",
  "</div>",
  "<ul>",
  "</ul>",
  "<ol>",
  "<li>",
  "</li>",
  "<h1>",
  "</h2>",
  "<strong>",
  "</em>",
  "<br>",
  "<pre>",
  "<code>",
  "<blockquote>",
  "<table>",
  "<td>",
  "<span>",
  '<a href="https://x.test/">',
  '<a href="/relative">',
  '<a href="#top" title="t">',
  '<a href="javascript:x()">',
  "</a>",
  "<b>",
  "</i>",
  "<del>",
  "<hr>",
  "<dl>",
  "<dt>",
  "</dd>",
  "<thead>",
  "<tr>",
  "<th>",
  "</table>",
  "<figure>",
  "<figcaption>",
  '<img src="/a.png" alt="a">',
  "<img src=x onerror=y()>",
  "<svg>",
  "<math>",
  "<noscript>",
  "<textarea>",
  "<script>",
  "</script>",
  "<style>",
  "<!--",
  "-->",
  "<![CDATA[",
  "<font>",
  "</font>",
  "<section>",
  "<form>",
  "<select>",
  "<option>",
  "<title>",
  "</br>",
  "</p>",
  '<b title="cut',
  "&amp;",
  "&#65;",
  "&nbsp",
  "&",
  "<",
  ">",
  "text",
  " ",
  "\n",
  '"',
);
const tagSoup = fc.array(tagSoupToken, { maxLength: 30 }).map((tokens) => tokens.join(""));

describe("rich_text sanitizing", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (html) => {
        const once = sanitizeRichText(html);
        expect(sanitizeRichText(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it("is idempotent on tag soup, wrappers, stray closers, links and images included", () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        const once = sanitizeRichText(html);
        expect(sanitizeRichText(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads the same events a slice at a time as all at once, whatever the slice", () => {
    const eventsOf = (html: string, slice: number) => {
      const events: unknown[] = [];
      const reading = new HtmlReading(html, {
        onopentag: (name, attributes) => events.push(["open", name, { ...attributes }]),
        ontext: (text) => events.push(["text", text]),
        onclosetag: (name) => events.push(["close", name]),
        onend: () => events.push(["end"]),
      });
      let advances = 1;
      while (!reading.advance(slice)) advances++;
      return { events, advances };
    };
    // Slicing happens: one character at a time, 30 open tags take an advance each to read and
    // (a quarter character's worth of closing, rounded up) one each to close at the end.
    expect(eventsOf("<i>".repeat(30), 1).advances).toBe(60);
    fc.assert(
      fc.property(tagSoup, fc.integer({ min: 1, max: 8 }), (html, slice) => {
        const whole = eventsOf(html, Number.POSITIVE_INFINITY);
        const sliced = eventsOf(html, slice);
        expect(sliced.events).toEqual(whole.events);
        expect(whole.advances).toBe(1);
      }),
      { numRuns: 3000 },
    );
  });

  it("sanitizes in slices to exactly what it gives in one go", async () => {
    await fc.assert(
      fc.asyncProperty(tagSoup, async (html) => {
        const long = html.repeat(Math.ceil((RICH_TEXT_SLICE * 2) / Math.max(html.length, 1)));
        expect(await sanitizeRichTextAsync(long)).toBe(sanitizeRichText(long));
      }),
      { numRuns: 40 },
    );
  });

  it("leaves text without <, > or & as the HTML parser would (the fast path is exact)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 100 }).filter((text) => !/[<>&]/.test(text)),
        (text) => {
          expect(sanitizeRichText(text)).toBe(text);
          expect(sanitizeRichText(`${text}<br />`)).toBe(`${text}<br />`);
        },
      ),
      { numRuns: 500 },
    );
  });
});
