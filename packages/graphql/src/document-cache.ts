import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  parse,
  type ValidationRule,
  validate,
} from "graphql";
import { LRUCache } from "lru-cache";

/** Operation texts kept parsed by default, counted in characters (about 1 MiB of text). */
export const DEFAULT_DOCUMENT_CACHE_CHARACTERS = 1_048_576;

/** What a parse gave: the document, or the syntax error to answer again. */
type Parsed = { readonly document: DocumentNode } | { readonly error: unknown };

/** `parse` and `validate` as graphql-http takes them, remembering their work. */
export interface DocumentCache {
  parse(source: string): DocumentNode;
  validate(
    schema: GraphQLSchema,
    document: DocumentNode,
    /** graphql's `specifiedRules` when left out. */
    rules?: readonly ValidationRule[],
  ): readonly GraphQLError[];
}

/**
 * Parsing and validating an operation costs more than running a small one, and clients send
 * the same few operations again and again: the text's parse (or its syntax error) is kept in
 * an LRU cache bounded by total characters, and the validation errors of each document it
 * gave. A document is validated once, against the schema and rules of its first validation:
 * use one cache per schema and rule set.
 */
export function documentCache(
  maximumCharacters = DEFAULT_DOCUMENT_CACHE_CHARACTERS,
): DocumentCache {
  const parsed = new LRUCache<string, Parsed>({
    maxSize: maximumCharacters,
    sizeCalculation: (_value, source) => Math.max(1, source.length),
  });
  // Keyed by the cached document itself, so it goes when the document leaves the cache.
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    parse(source) {
      let entry = parsed.get(source);
      if (entry === undefined) {
        try {
          entry = { document: parse(source) };
        } catch (error) {
          entry = { error };
        }
        // A text over the whole budget is parsed every time rather than evicting everything.
        if (source.length <= maximumCharacters) parsed.set(source, entry);
      }
      if ("error" in entry) throw entry.error;
      return entry.document;
    },
    validate(schema, document, rules) {
      let errors = validated.get(document);
      if (errors === undefined) {
        errors = validate(schema, document, rules);
        validated.set(document, errors);
      }
      return errors;
    },
  };
}
