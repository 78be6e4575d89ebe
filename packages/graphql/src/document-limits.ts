import { type DocumentNode, GraphQLError, Lexer, parse, Source, TokenKind } from "graphql";

/** Largest operation text (the `query` parameter) accepted by default, in UTF-8 bytes: 64 KiB. */
export const DEFAULT_MAXIMUM_QUERY_BYTES = 65_536;
/** Most lexical tokens (names, punctuators, values; not comments) one operation text may hold. */
export const DEFAULT_MAXIMUM_TOKENS = 2_000;
/** Deepest nesting of `{`, `[` and `(` one operation text may hold. */
export const DEFAULT_MAXIMUM_NESTING = 256;

/** The limits an operation text is held to before it is parsed, as `graphqlRoutes` takes them. */
export interface DocumentLimits {
  /**
   * Largest `query` text in UTF-8 bytes (default {@link DEFAULT_MAXIMUM_QUERY_BYTES}). The
   * request body has its own, larger cap: large values belong in `variables`.
   */
  readonly maximumQueryBytes?: number | undefined;
  /** Most tokens in the text (default {@link DEFAULT_MAXIMUM_TOKENS}). */
  readonly maximumTokens?: number | undefined;
  /** Deepest nesting of braces, brackets and parentheses (default {@link DEFAULT_MAXIMUM_NESTING}). */
  readonly maximumNesting?: number | undefined;
}

/**
 * A `parse` that refuses an operation text over the limits before building anything from it:
 * first by its size (`Query size limit of 65536 bytes exceeded.`), then in one pass of
 * graphql's lexer by its tokens (`Query token limit of 2000 exceeded.`, both with
 * `extensions.code` `query_too_large`) and its nesting (`Query nesting limit of 256
 * exceeded.`, `query_too_deep`). Parsing time grows with the tokens, and the parser recurses
 * once per nesting level, so a deep list literal would otherwise overflow the stack. Throws
 * those errors, or graphql's syntax errors, as `parse` does.
 */
export function parseWithinLimits(limits: DocumentLimits = {}): (source: string) => DocumentNode {
  const maximumBytes = limits.maximumQueryBytes ?? DEFAULT_MAXIMUM_QUERY_BYTES;
  const maximumTokens = limits.maximumTokens ?? DEFAULT_MAXIMUM_TOKENS;
  const maximumNesting = limits.maximumNesting ?? DEFAULT_MAXIMUM_NESTING;
  return (text) => {
    if (!fitsBytes(text, maximumBytes)) {
      throw limitError(`Query size limit of ${maximumBytes} bytes exceeded.`, "query_too_large");
    }
    const source = new Source(text);
    checkTokens(source, maximumTokens, maximumNesting);
    // The lexer pass refused more tokens already; the parser's own count stays as a backstop.
    return parse(source, { maxLexicalTokens: maximumTokens });
  };
}

/** True when `text` is at most `maximum` bytes as UTF-8, counted only when it may not be. */
function fitsBytes(text: string, maximum: number): boolean {
  // A UTF-16 unit is one to three UTF-8 bytes (a surrogate pair, two units, is four).
  if (text.length > maximum) return false;
  if (text.length * 3 <= maximum) return true;
  return new TextEncoder().encode(text).byteLength <= maximum;
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Reads the tokens of `source` with graphql's lexer (which loops, so any nesting is safe to
 * read), stopping at the first one over either limit. A syntax error it meets is thrown as
 * the parser would throw it.
 */
function checkTokens(source: Source, maximumTokens: number, maximumNesting: number): void {
  const lexer = new Lexer(source);
  let tokens = 0;
  let nesting = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    tokens += 1;
    if (tokens > maximumTokens) {
      throw limitError(`Query token limit of ${maximumTokens} exceeded.`, "query_too_large", [
        source,
        token.start,
      ]);
    }
    if (OPENING.has(token.kind)) {
      nesting += 1;
      if (nesting > maximumNesting) {
        throw limitError(`Query nesting limit of ${maximumNesting} exceeded.`, "query_too_deep", [
          source,
          token.start,
        ]);
      }
    } else if (CLOSING.has(token.kind) && nesting > 0) {
      nesting -= 1;
    }
  }
}

function limitError(
  message: string,
  code: string,
  at?: readonly [source: Source, position: number],
): GraphQLError {
  return new GraphQLError(message, {
    ...(at ? { source: at[0], positions: [at[1]] } : {}),
    extensions: { code },
  });
}
