import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
  validate,
} from "graphql";
import { parseWithinLimits } from "./document-limits.js";
import { queryLimitRules } from "./query-limits.js";

/** Operation texts kept parsed by default, counted in characters (about 1 MiB of text). */
export const DEFAULT_DOCUMENT_CACHE_CHARACTERS = 1_048_576;

/** How a {@link documentCache} parses and validates what it does not hold yet. */
export interface DocumentCacheOptions {
  /** Characters of operation text kept (default {@link DEFAULT_DOCUMENT_CACHE_CHARACTERS}). */
  readonly maximumCharacters?: number | undefined;
  /** Parses a text (default: {@link parseWithinLimits} with its default limits). */
  readonly parse?: ((source: string) => DocumentNode) | undefined;
  /**
   * Rules run alone before any other (default: {@link queryLimitRules} with its defaults): a
   * document they refuse gets their errors only.
   */
  readonly limitRules?: readonly ValidationRule[] | undefined;
}

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
 * use one cache per schema and rule set. The limit rules run first and alone, because
 * graphql's own rules take time that grows faster than the document (checking that fields of
 * one name can merge compares them pairwise): within the limits that stays small.
 */
export function documentCache(options: DocumentCacheOptions = {}): DocumentCache {
  const maximumCharacters = options.maximumCharacters ?? DEFAULT_DOCUMENT_CACHE_CHARACTERS;
  const parseText = options.parse ?? parseWithinLimits();
  const limitRules = options.limitRules ?? queryLimitRules();
  const parsed = new TextKeyedLru<Parsed>(maximumCharacters);
  // Keyed by the cached document itself, so it goes when the document leaves the cache.
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    parse(source) {
      // A text over the whole budget is never kept, so it is not looked up either.
      const cacheable = source.length <= maximumCharacters;
      let entry = cacheable ? parsed.get(source) : undefined;
      if (entry === undefined) {
        try {
          entry = { document: parseText(source) };
        } catch (error) {
          entry = { error };
        }
        // A text over the whole budget is parsed every time rather than evicting everything.
        if (cacheable) parsed.set(source, entry);
      }
      if ("error" in entry) throw entry.error;
      return entry.document;
    },
    validate(schema, document, rules) {
      let errors = validated.get(document);
      if (errors === undefined) {
        const refused = limitRules.length > 0 ? validate(schema, document, limitRules) : [];
        errors = refused.length > 0 ? refused : validate(schema, document, rules);
        validated.set(document, errors);
      }
      return errors;
    },
  };
}

/**
 * A least-recently-used map whose size is the total length of its keys. A Map keeps insertion
 * order, so moving a key to the end on every hit leaves the least recently used one first.
 * Written here rather than taken from lru-cache, whose Node build loads node:diagnostics_channel
 * at import, and a main entry must load no `node:` module (it runs on Workers and Deno).
 */
class TextKeyedLru<V> {
  readonly #entries = new Map<string, V>();
  #size = 0;

  constructor(private readonly maximumSize: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#entries.delete(key)) this.#size -= sizeOf(key);
    this.#entries.set(key, value);
    this.#size += sizeOf(key);
    for (const oldest of this.#entries.keys()) {
      if (this.#size <= this.maximumSize) break;
      this.#entries.delete(oldest);
      this.#size -= sizeOf(oldest);
    }
  }
}

function sizeOf(key: string): number {
  return Math.max(1, key.length);
}
