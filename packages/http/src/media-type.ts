/** A `Content-Type` split into its lower-cased essence (`type/subtype`) and parameters. */
export interface MediaType {
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a `Content-Type` value (RFC 9110 §8.3.1), lenient about spaces and parameter order,
 * strict about the essence. Names are compared case-insensitively, so they come back lower-cased.
 * Never throws; `undefined` for a missing or unreadable value.
 */
export function parseMediaType(value: string | null | undefined): MediaType | undefined {
  if (!value) return undefined;
  const [essencePart = "", ...parameterParts] = value.split(";");
  const essence = essencePart.trim().toLowerCase();
  const [type, subtype, ...rest] = essence.split("/");
  if (rest.length > 0 || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) {
    return undefined;
  }
  const parameters = new Map<string, string>();
  for (const part of parameterParts) {
    const equals = part.indexOf("=");
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    let parameterValue = part.slice(equals + 1).trim();
    if (
      parameterValue.length >= 2 &&
      parameterValue.startsWith('"') &&
      parameterValue.endsWith('"')
    ) {
      parameterValue = parameterValue.slice(1, -1);
    }
    if (TOKEN.test(name) && !parameters.has(name)) parameters.set(name, parameterValue);
  }
  return { essence, parameters };
}
