import { describe, expect, it } from "vitest";
import { headingAnchors, headingSlug, markdownLinks } from "./markdown-links.ts";

describe("markdownLinks", () => {
  it("finds inline links, images, reference definitions and HTML links, with their lines", () => {
    const markdown = [
      "See [the routes](docs/routes.md#html-account-routes) and ![a page](docs/screenshots/a.png).",
      '[fields]: ./docs/fields.md "Field types"',
      '<a href="LICENSE">licence</a> and [titled](docs/errors.md "Errors") and [angled](<docs/a b.md>)',
    ].join("\n");
    expect(markdownLinks(markdown)).toEqual([
      { target: "docs/routes.md#html-account-routes", line: 1 },
      { target: "docs/screenshots/a.png", line: 1 },
      { target: "./docs/fields.md", line: 2 },
      { target: "docs/errors.md", line: 3 },
      { target: "docs/a b.md", line: 3 },
      { target: "LICENSE", line: 3 },
    ]);
  });

  it("leaves out external addresses, fenced code and code spans", () => {
    const markdown = [
      "[site](https://example.com) [mail](mailto:a@example.com) [cdn](//cdn.example/x.js)",
      "```ts",
      "const first = links[0](missing.md);",
      "```",
      "`[not a link](missing.md)` but [a link](present.md)",
    ].join("\n");
    expect(markdownLinks(markdown)).toEqual([{ target: "present.md", line: 5 }]);
  });
});

describe("headingAnchors", () => {
  it("slugs headings as GitHub does, numbering repeats", () => {
    expect(headingSlug("Cross-site check, security headers, CORS")).toBe(
      "cross-site-check-security-headers-cors",
    );
    expect(headingSlug("`POST /webhooks/<name>`: the event log")).toBe(
      "post-webhooksname-the-event-log",
    );
    const anchors = headingAnchors(
      [
        "# Routes",
        "## Errors",
        "```",
        "## Not a heading",
        "```",
        "## Errors",
        '<a id="Here"></a>',
      ].join("\n"),
    );
    expect([...anchors].sort()).toEqual(["errors", "errors-1", "here", "routes"]);
  });
});
