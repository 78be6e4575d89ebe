// A front door (`accountRoutes`, `webhookRoute`, …) checks its required options before it builds
// anything from them: a mistake such as a store left out of a spread is then one TypeError
// naming the option, at start, rather than "x is not a function" at the first request.

/**
 * A configuration mistake as one `TypeError`: the function, the option, what is wrong with it
 * and what to pass (``webhookRoute: `verify` is missing: pass …``).
 */
export function configurationError(
  fn: string,
  option: string,
  problem: string,
  advice: string,
): TypeError {
  return new TypeError(`${fn}: \`${option}\` ${problem}: ${advice}`);
}

/** Throws {@link configurationError} unless `options[name]` is a function. */
export function requireFunctionOption(
  fn: string,
  options: unknown,
  name: string,
  advice: string,
): void {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  if (typeof value === "function") return;
  throw configurationError(
    fn,
    name,
    value === undefined ? "is missing" : "is not a function",
    advice,
  );
}

/**
 * Throws {@link configurationError} unless `options[name]` is an object with every one of
 * `methods`.
 */
export function requireObjectOption(
  fn: string,
  options: unknown,
  name: string,
  methods: readonly string[],
  advice: string,
): void {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== "object" || value === null) {
    throw configurationError(fn, name, "is missing", advice);
  }
  const missing = methods.find(
    (method) => typeof (value as Record<string, unknown>)[method] !== "function",
  );
  if (missing !== undefined) {
    throw configurationError(fn, name, `has no \`${missing}\` method`, advice);
  }
}
