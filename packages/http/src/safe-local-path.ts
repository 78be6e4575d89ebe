/** Longest redirect target accepted; longer ones are refused, not truncated. */
export const MAXIMUM_LOCAL_PATH_LENGTH = 2048;

const PROBE_ORIGIN = "https://local-path.invalid";
const MAXIMUM_DECODING_ROUNDS = 4;

// Visible ASCII (0x21-0x7E) except the backslash. Browsers send paths and queries
// percent-encoded, so nothing else belongs here, and nothing else fits a Location header.
const PLAIN_TARGET = /^[!-[\]-~]+$/;

/** C0 controls, DEL and C1 controls: URL parsers strip or reinterpret them. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** A path leaves the app when it is not `/` followed by something other than `/` or `\`. */
function leavesApp(path: string): boolean {
  return path[0] !== "/" || path[1] === "/" || path[1] === "\\";
}

/**
 * Whether a path, resolved against an origin, stays on it and does not start with "//" after
 * dot segments ("/..//evil" resolves to the path "//evil", which a later redirect could misread).
 */
function staysOnOrigin(path: string): boolean {
  try {
    const resolved = new URL(path, PROBE_ORIGIN);
    return resolved.origin === PROBE_ORIGIN && !resolved.pathname.startsWith("//");
  } catch {
    return false;
  }
}

/**
 * Decodes every `%XX` run, leniently: a run that is not UTF-8 is decoded byte by byte, and a `%`
 * that starts no escape stays. Lenient on purpose: any decoder along the way might be.
 */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
  });
}

/**
 * Undoes percent-encoding repeatedly, as layers of proxies and frameworks might, until the text
 * is stable; `undefined` when it has not settled after a few rounds.
 */
function fullyDecoded(target: string): string | undefined {
  let current = target;
  for (let round = 0; round < MAXIMUM_DECODING_ROUNDS; round++) {
    const next = percentDecoded(current);
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Returns `target` when it is a path of this app, fit for `Location` (a remembered page, a
 * `return_to`), else `undefined`. It must start with exactly one `/`, hold only visible ASCII
 * (no backslash, control character, whitespace or raw Unicode), and still be such a path once
 * percent-decoded: `/%2F%2Fevil`, `/%5Cevil` and `/%09/evil` are refused. Never throws.
 */
export function safeLocalPath(target: unknown): string | undefined {
  if (typeof target !== "string" || target.length > MAXIMUM_LOCAL_PATH_LENGTH) return undefined;
  if (!PLAIN_TARGET.test(target) || leavesApp(target)) return undefined;
  const decoded = fullyDecoded(target);
  if (decoded === undefined || leavesApp(decoded) || hasControlCharacter(decoded)) return undefined;
  return staysOnOrigin(target) && staysOnOrigin(decoded) ? target : undefined;
}
