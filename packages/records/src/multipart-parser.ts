// A streaming `multipart/form-data` parser (RFC 7578 over RFC 2046's framing), written here
// rather than taken from a library: the runtime's `formData()` parses only once the whole body is
// in memory, in one step that held the event loop for seconds on 60 MB of photos or 800,000
// empty parts; @fastify/busboy reads Node streams only, and these packages also run on Workers,
// Bun and Deno. This parser takes the body chunk by chunk from any source, counts parts as their
// delimiters arrive, and refuses as soon as a bound is crossed, so what it keeps and the work it
// does stay within the bounds whatever the body holds.

/** Why a multipart body was refused while it was parsed. */
export type MultipartRefusal = "malformed" | "too-many-parts" | "too-many-parts-per-name";

/** One part of a form: a text value, or a file when the part named a `filename`. */
export interface MultipartPart {
  readonly name: string;
  /** The file's name as sent (`""` for an empty file input); absent for a text value. */
  readonly filename?: string | undefined;
  /** The part's `Content-Type`, when it sent one. */
  readonly contentType?: string | undefined;
  /** The part's bytes, in order: copies, so the parser's input may be reused afterwards. */
  readonly content: readonly Uint8Array<ArrayBuffer>[];
}

/** The bounds a body is held to while it is parsed. */
export interface MultipartLimits {
  /** Parts in the whole body; the first delimiter past it refuses the body. */
  readonly maximumParts: number;
  /** Parts under any one name (the files of a multiple file input share theirs). */
  readonly maximumPartsPerName: number;
}

/**
 * A part's header block at most this long: browsers send a few hundred bytes. Larger is
 * refused as malformed, so a block that never ends is not kept growing.
 */
export const MAXIMUM_PART_HEADER_BYTES = 8 * 1024;

const CR = 13;
const LF = 10;
const DASH = 45;
const SPACE = 32;
const TAB = 9;
const CRLF = Uint8Array.of(CR, LF);
const BLANK_LINE = Uint8Array.of(CR, LF, CR, LF);
// RFC 2046 §5.1.1: 1 to 70 characters of this set, not ending in a space.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

const headerDecoder = new TextDecoder("utf-8");

type State = "preamble" | "after-delimiter" | "headers" | "content" | "epilogue";

/** Whether `boundary` is one RFC 2046 allows. */
export function isValidBoundary(boundary: string): boolean {
  return BOUNDARY.test(boundary);
}

/**
 * Parses a multipart body pushed to it in chunks of any size, handing each complete part to
 * `onPart`. `push` answers a refusal as soon as the bytes so far show one (the caller stops
 * reading there); `finish` says whether the body ended with its closing delimiter. Each byte is
 * looked at a bounded number of times, whatever the chunks, the boundary or the content; what
 * it keeps between pushes is the current part and at most one header block.
 */
export class MultipartParser {
  readonly #delimiter: Uint8Array;
  readonly #limits: MultipartLimits;
  readonly #onPart: (part: MultipartPart) => void;
  readonly #partsPerName = new Map<string, number>();
  // A body may start with its first delimiter, whose leading CRLF is then implied (RFC 2046).
  #pending: Uint8Array = CRLF;
  #state: State = "preamble";
  #parts = 0;
  #part: {
    name: string;
    filename?: string | undefined;
    contentType?: string | undefined;
    content: Uint8Array<ArrayBuffer>[];
  } | null = null;

  /**
   * @param boundary the `boundary` of the body's `Content-Type`; check it with
   *   {@link isValidBoundary} first.
   */
  constructor(boundary: string, limits: MultipartLimits, onPart: (part: MultipartPart) => void) {
    this.#delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
    this.#limits = limits;
    this.#onPart = onPart;
  }

  /** Whether the closing delimiter was read: the rest of the body (its epilogue) is not needed. */
  get closed(): boolean {
    return this.#state === "epilogue";
  }

  /** Parses the next bytes of the body; a refusal ends the parse. */
  push(bytes: Uint8Array): MultipartRefusal | undefined {
    const pending = this.#pending.length === 0 ? bytes : concatenate(this.#pending, bytes);
    const step = this.#advance(pending);
    if (typeof step === "string") return step;
    this.#pending = pending.subarray(step);
    return undefined;
  }

  /** The answer once the body has ended: malformed unless it was closed. */
  finish(): MultipartRefusal | undefined {
    return this.closed ? undefined : "malformed";
  }

  /** Reads what it can of `pending`; the offset of the first byte it still needs, or a refusal. */
  #advance(pending: Uint8Array): number | MultipartRefusal {
    const delimiter = this.#delimiter;
    let offset = 0;
    for (;;) {
      switch (this.#state) {
        case "preamble": {
          const at = indexOfBytes(pending, delimiter, offset);
          // Everything before the first delimiter is ignored, but for a possible start of one.
          if (at === -1) return Math.max(offset, pending.length - delimiter.length + 1);
          offset = at + delimiter.length;
          this.#state = "after-delimiter";
          break;
        }
        case "after-delimiter": {
          // `--` closes the body; otherwise optional spaces, then the CRLF that opens a part.
          while (
            offset < pending.length &&
            (pending[offset] === SPACE || pending[offset] === TAB)
          ) {
            offset += 1;
          }
          if (pending.length - offset < 2) return offset;
          if (pending[offset] === DASH && pending[offset + 1] === DASH) {
            this.#state = "epilogue";
            return pending.length;
          }
          if (pending[offset] !== CR || pending[offset + 1] !== LF) return "malformed";
          this.#parts += 1;
          if (this.#parts > this.#limits.maximumParts) return "too-many-parts";
          // The CRLF stays: a part without headers is then the same blank line as one with.
          this.#state = "headers";
          break;
        }
        case "headers": {
          const end = indexOfBytes(pending, BLANK_LINE, offset);
          if (end - offset > MAXIMUM_PART_HEADER_BYTES) return "malformed";
          if (end === -1) {
            return pending.length - offset > MAXIMUM_PART_HEADER_BYTES ? "malformed" : offset;
          }
          const headers = partHeaders(pending.subarray(offset + 2, end));
          if (headers === undefined) return "malformed";
          const named = (this.#partsPerName.get(headers.name) ?? 0) + 1;
          if (named > this.#limits.maximumPartsPerName) return "too-many-parts-per-name";
          this.#partsPerName.set(headers.name, named);
          this.#part = { ...headers, content: [] };
          offset = end + BLANK_LINE.length;
          this.#state = "content";
          break;
        }
        case "content": {
          const part = this.#part!;
          const at = indexOfBytes(pending, delimiter, offset);
          // Without a delimiter, all but the bytes that may start one belong to the part.
          const end = at === -1 ? pending.length - delimiter.length + 1 : at;
          if (end > offset) part.content.push(pending.slice(offset, end));
          if (at === -1) return Math.max(offset, end);
          this.#onPart(part);
          this.#part = null;
          offset = at + delimiter.length;
          this.#state = "after-delimiter";
          break;
        }
        case "epilogue":
          return pending.length;
      }
    }
  }
}

/** The name, file name and type a part's header block gives, or undefined when it is unusable. */
function partHeaders(
  block: Uint8Array,
): { name: string; filename?: string; contentType?: string } | undefined {
  let disposition: string | undefined;
  let contentType: string | undefined;
  const text = headerDecoder.decode(block);
  for (const line of text === "" ? [] : text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  const parameters = disposition === undefined ? undefined : formDataParameters(disposition);
  const name = parameters?.get("name");
  if (name === undefined) return undefined;
  const filename = parameters?.get("filename");
  return {
    name,
    ...(filename === undefined ? {} : { filename }),
    ...(contentType === undefined ? {} : { contentType }),
  };
}

const DISPOSITION_PARAMETER =
  /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"([^"]*)"|([^";\s]*))\s*(?:;|$)/;

/**
 * The parameters of a `Content-Disposition: form-data` value, names lower-cased, or undefined
 * for another disposition or unreadable parameters. A quoted value runs to the next `"`, as
 * browsers write it: they escape no backslash, and write `"`, CR and LF in names as `%22`,
 * `%0D` and `%0A` (HTML's form serialization), which are undone, as the runtime's own parser
 * does.
 */
function formDataParameters(disposition: string): Map<string, string> | undefined {
  const semicolon = disposition.indexOf(";");
  const type = (semicolon === -1 ? disposition : disposition.slice(0, semicolon)).trim();
  if (type.toLowerCase() !== "form-data") return undefined;
  const parameters = new Map<string, string>();
  let rest = semicolon === -1 ? "" : disposition.slice(semicolon + 1);
  while (rest.trim() !== "") {
    const match = DISPOSITION_PARAMETER.exec(rest);
    if (match === null) return undefined;
    const [whole, name, quoted, token] = match;
    const value = quoted ?? token!;
    const key = name!.toLowerCase();
    if (!parameters.has(key)) parameters.set(key, unescapeFormName(value));
    rest = rest.slice(whole.length);
  }
  return parameters;
}

function unescapeFormName(value: string): string {
  return value.replace(/%(22|0D|0A)/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/**
 * Where `needle` first occurs in `haystack` at or after `from`, or -1. The native `indexOf`
 * finds each candidate first byte; the delimiters searched for hold their first byte (CR) only
 * at their start or, for the blank line, at a fixed place, so a failed candidate costs a few
 * comparisons and the search stays linear.
 */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(first, from); at !== -1 && at <= last; ) {
    let matched = 1;
    while (matched < needle.length && haystack[at + matched] === needle[matched]) matched += 1;
    if (matched === needle.length) return at;
    at = haystack.indexOf(first, at + 1);
  }
  return -1;
}

function concatenate(head: Uint8Array, tail: Uint8Array): Uint8Array {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  return joined;
}
