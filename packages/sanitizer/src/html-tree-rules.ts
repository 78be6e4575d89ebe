// htmlparser2 8's tree rules (from its Parser, which does not export them), used by
// html-reader.ts to read markup exactly as that Parser does. test/html-reader.test.ts checks the
// reader against the Parser, so an upgrade that changes a rule fails there.

const PARAGRAPH = new Set(["p"]);
const FORM_CONTROLS = new Set([
  "input",
  "option",
  "optgroup",
  "select",
  "button",
  "datalist",
  "textarea",
]);
const TABLE_SECTIONS = new Set(["thead", "tbody"]);
const DEFINITION_PARTS = new Set(["dd", "dt"]);
const RUBY_PARTS = new Set(["rt", "rp"]);

// Opening the key closes the innermost open element while that element's tag is in the set.
const IMPLIED_CLOSES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ...["select", "input", "output", "button", "datalist", "textarea"].map(
    (tag) => [tag, FORM_CONTROLS] as const,
  ),
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", DEFINITION_PARTS],
  ["dt", DEFINITION_PARTS],
  ["rt", RUBY_PARTS],
  ["rp", RUBY_PARTS],
  ["tbody", TABLE_SECTIONS],
  ["tfoot", TABLE_SECTIONS],
  ...[
    ..."p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl".split(" "),
    ..."fieldset figcaption figure footer form header hr main nav ol pre section table ul".split(
      " ",
    ),
  ].map((tag) => [tag, PARAGRAPH] as const),
]);

/** Elements with no content and no closing tag: the parser closes them as they open. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set(
  "area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr".split(
    " ",
  ),
);

/** Elements that start foreign content, where `<x/>` closes `x`. */
export const FOREIGN_ELEMENTS: ReadonlySet<string> = new Set(["math", "svg"]);

/** Elements inside foreign content that hold HTML again. */
export const INTEGRATION_ELEMENTS: ReadonlySet<string> = new Set(
  "mi mo mn ms mtext annotation-xml foreignobject desc title".split(" "),
);

/**
 * Whether opening `opening` while `open` is the innermost open element closes `open` first
 * (`<p>` before `<div>`, `<li>` before `<li>`), as htmlparser2 reads markup.
 */
export function closesWhenOpening(opening: string, open: string): boolean {
  return IMPLIED_CLOSES.get(opening)?.has(open) ?? false;
}
