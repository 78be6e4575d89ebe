import { sqlTokens } from "@tessera/sql";

/**
 * Rewrites the `?` placeholders stores write into PostgreSQL's numbered `$1, $2, …`. A `?` is
 * a placeholder only where PostgreSQL reads code: one inside a string literal (`E'…'` with its
 * backslash escapes included), a quoted identifier, a comment (nested block comments too) or a
 * dollar-quoted body stays as written, and so does a `$1` already there. The text is read by
 * `sqlTokens`, the tokenizer `@tessera/sql` reads migrations with, so the two cannot disagree
 * on where a literal ends.
 */
export function numberPlaceholders(sql: string): string {
  let rewritten = "";
  let count = 0;
  let copied = 0;
  for (const token of sqlTokens(sql, "postgres")) {
    if (token.kind !== "other" || token.text !== "?") continue;
    count += 1;
    rewritten += `${sql.slice(copied, token.offset)}$${count}`;
    copied = token.offset + 1;
  }
  return rewritten + sql.slice(copied);
}

// Statement texts are few and fixed, so their numbered forms are kept (up to a bound, in case
// an application builds statements of its own without end), and each is scanned once.
const numbered = new Map<string, string>();

/** {@link numberPlaceholders}, kept per statement text. */
export function numberedStatement(sql: string): string {
  let rewritten = numbered.get(sql);
  if (rewritten === undefined) {
    rewritten = numberPlaceholders(sql);
    if (numbered.size < 10_000) numbered.set(sql, rewritten);
  }
  return rewritten;
}
