// readHtml reads markup as htmlparser2's Parser does (same events, same order), from the same
// tokenizer and a copy of the Parser's tree rules; this checks the copy against the Parser, so an
// upgrade that changes a rule fails here rather than changing what the sanitizer keeps.

import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { type HtmlHandler, readHtml } from "../src/html-reader.js";
import { RICH_TEXT_TAGS } from "../src/index.js";

/** The events a reader reports, one string each, adjacent text joined (where text splits is
 * not part of the contract). */
function recorder(): { events: string[]; handler: HtmlHandler } {
  const events: string[] = [];
  return {
    events,
    handler: {
      onopentag: (name, attributes) => events.push(`<${name} ${JSON.stringify(attributes)}>`),
      ontext: (text) => {
        const last = events.at(-1);
        if (last?.startsWith("text ")) events[events.length - 1] = `${last}${text}`;
        else events.push(`text ${text}`);
      },
      onclosetag: (name) => events.push(`</${name}>`),
      onend: () => events.push("end"),
    },
  };
}

function parserEvents(html: string): string[] {
  const { events, handler } = recorder();
  new Parser(
    {
      onopentag: handler.onopentag,
      ontext: handler.ontext,
      onclosetag: handler.onclosetag,
      onend: handler.onend,
    },
    { decodeEntities: true },
  ).end(html);
  return events;
}

function readerEvents(html: string): string[] {
  const { events, handler } = recorder();
  readHtml(html, handler);
  return events;
}

const TAG_NAMES = [
  ...RICH_TEXT_TAGS,
  ..."font section form select option optgroup input button textarea title script style".split(" "),
  ..."svg math mtext foreignObject desc table tfoot caption rt rp body head link area wbr".split(
    " ",
  ),
];

describe("readHtml", () => {
  it("reports what htmlparser2's Parser reports, for any tag soup", () => {
    const name = fc.constantFrom(...TAG_NAMES, "P", "DiV", "x-y");
    const attribute = fc.constantFrom(
      ' title="t"',
      " title='a&amp;b'",
      " TITLE=x",
      ' href="java&#x09;script:x"',
      ' href="&#0000106a"',
      " alt",
      ' title="first" title="second"',
      ' src="&lt;&quot;"',
      " __proto__=x",
    );
    const token = fc.oneof(
      fc
        .tuple(name, fc.array(attribute, { maxLength: 2 }), fc.constantFrom(">", "/>", ""))
        .map(([tag, attributes, end]) => `<${tag}${attributes.join("")}${end}`),
      name.map((tag) => `</${tag}>`),
      fc.constantFrom(
        "text",
        " ",
        "&amp;",
        "&lt;",
        "&#60;",
        "&copy",
        "&",
        "<",
        ">",
        "<!-- c -->",
        "<!--",
        "<![CDATA[x]]>",
        "<!doctype html>",
        "<?xml ?>",
        "</>",
        "</br>",
        "</p>",
        "</script>",
        "<b ",
        "</",
        "/",
        "=",
        '"',
      ),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 25 }), (tokens) => {
        const html = tokens.join("");
        expect(readerEvents(html)).toEqual(parserEvents(html));
      }),
      { numRuns: 3000 },
    );
  });

  it("opens and closes as the Parser does for every pair of tags, nested or not", () => {
    const disagreements = TAG_NAMES.flatMap((open) =>
      TAG_NAMES.flatMap((opening) => [`<${open}><${opening}>`, `<${open}></${opening}>x`]),
    ).filter((html) => JSON.stringify(readerEvents(html)) !== JSON.stringify(parserEvents(html)));
    expect(disagreements).toEqual([]);
  });

  it("reads 100,000 nested elements closed by 100,000 unmatched closing tags", () => {
    // The Parser scans its stack for each closing tag: this took it a minute.
    let opens = 0;
    let closes = 0;
    readHtml(`${"<b>".repeat(100_000)}${"</i>".repeat(100_000)}`, {
      onopentag: () => opens++,
      ontext: () => {},
      onclosetag: () => closes++,
      onend: () => {},
    });
    expect([opens, closes]).toEqual([100_000, 100_000]);
  });
});
