// Deliberately tiny: model and attachment names are chosen by developers, who can pass an
// explicit table name for an irregular noun; a full inflector would be most of this package.

/**
 * English plural of a snake_case model name (`post` → `posts`, `category` → `categories`,
 * `box` → `boxes`); only the last word changes. Irregular nouns need an explicit table name.
 */
export function pluralize(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/** Inverse of {@link pluralize} for the names it produces (`photos` → `photo`, `boxes` → `box`). */
export function singularize(name: string): string {
  if (/[^aeiou]ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}

/**
 * camelCase of a snake_case name (`publish_on` → `publishOn`, `post_id` → `postId`): the
 * spelling of generated JavaScript identifiers and GraphQL fields. Two snake names can meet
 * (`a_1b` and `a1b`), so callers that need distinct results check for that.
 */
export function camelize(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
