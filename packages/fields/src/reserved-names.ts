// The documented list (docs/fields.md), Rust keywords included, so a declaration that works here
// also works with a Rust generator of the same contract: declarations stay portable.

/** The reserved names as a literal list, so that declaration types can refuse them too. */
export const RESERVED_NAME_LIST = [
  // the table's own columns
  "id",
  "created_at",
  "updated_at",
  // Rust keywords
  ...["as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else"],
  ...["enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match"],
  ...["mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super"],
  ...["trait", "true", "try", "type", "unsafe", "use", "where", "while", "yield"],
  // SQL keywords
  ...["and", "asc", "by", "case", "check", "default", "desc", "from", "group", "index", "join"],
  ...["key", "limit", "not", "null", "offset", "or", "order", "primary", "references"],
  ...["select", "table", "unique", "values"],
] as const;

/** A field name the generator refuses. */
export type ReservedName = (typeof RESERVED_NAME_LIST)[number];

/** Field names the generator refuses: the table's own columns, Rust keywords, SQL keywords. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(RESERVED_NAME_LIST);
