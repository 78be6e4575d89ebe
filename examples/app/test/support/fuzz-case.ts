import fc from "fast-check";
import type { RawRequest } from "./raw-request.js";

/** One part of a generated multipart body. */
export interface MultipartPart {
  readonly name: string;
  /** Absent: a plain field; present: a file part, with this `filename`. */
  readonly filename?: string;
  /** The part's own `Content-Type`; absent sends none. */
  readonly contentType?: string;
  readonly content: string | Uint8Array;
}

/** A generated body: text (sent as UTF-8), raw bytes, or multipart parts. */
export type FuzzBody =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "bytes"; readonly bytes: Uint8Array }
  | {
      readonly kind: "multipart";
      readonly boundary: string;
      readonly parts: readonly MultipartPart[];
      /** `closed` ends with the closing boundary; `open` leaves it out; `cut` stops mid-part. */
      readonly ending: "closed" | "open" | "cut";
    };

/**
 * One generated request, as a description: values such as `{owner}` (a bearer token) or
 * `{post}` (a record id) stay placeholders, resolved when it is sent, so a counterexample
 * reads as what it means and replays whatever ids the run gave the records.
 */
export interface FuzzCase {
  /** The route of the catalogue it aims at, as the app declares it: `POST /api/posts`. */
  readonly route: string;
  readonly method: string;
  /** Path and query, percent-encoded as sent; may hold `{placeholders}`. */
  readonly path: string;
  /** Headers in order; values may hold `{placeholders}`. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: FuzzBody;
}

const EXCERPT = 160;

function excerpt(text: string): string {
  const shown = text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
  // JSON.stringify shows NUL, lone surrogates and line breaks as escapes.
  return `${JSON.stringify(shown)}${text.length > EXCERPT ? ` (${text.length} characters)` : ""}`;
}

function bytesExcerpt(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, 48)).toString("hex");
  return `bytes ${hex}${bytes.byteLength > 48 ? `… (${bytes.byteLength} bytes)` : ""}`;
}

function describeBody(body: FuzzBody): string {
  switch (body.kind) {
    case "text":
      return excerpt(body.text);
    case "bytes":
      return bytesExcerpt(body.bytes);
    case "multipart":
      return `multipart (boundary ${excerpt(body.boundary)}, ${body.ending}) [${body.parts
        .map(
          (part) =>
            `${excerpt(part.name)}${part.filename === undefined ? "" : ` file ${excerpt(part.filename)}`}${
              part.contentType === undefined ? "" : ` type ${excerpt(part.contentType)}`
            }: ${typeof part.content === "string" ? excerpt(part.content) : bytesExcerpt(part.content)}`,
        )
        .join("; ")}]`;
  }
}

/** The case in a few lines: method, path, headers and an excerpt of the body. */
export function describeCase(fuzzCase: FuzzCase): string {
  const lines = [`${fuzzCase.method} ${excerpt(fuzzCase.path)}  (route ${fuzzCase.route})`];
  for (const [name, value] of fuzzCase.headers) lines.push(`  ${name}: ${excerpt(value)}`);
  if (fuzzCase.body) lines.push(`  body: ${describeBody(fuzzCase.body)}`);
  return lines.join("\n");
}

/** Gives the case fast-check's readable printing (a counterexample is printed this way). */
export function readable(fuzzCase: FuzzCase): FuzzCase {
  return Object.assign(fuzzCase, { [fc.toStringMethod]: () => `\n${describeCase(fuzzCase)}\n` });
}

const CRLF = "\r\n";

function multipartBytes(body: Extract<FuzzBody, { kind: "multipart" }>): Uint8Array {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const part of body.parts) {
    const disposition = `form-data; name="${part.name}"${
      part.filename === undefined ? "" : `; filename="${part.filename}"`
    }`;
    const head = `--${body.boundary}${CRLF}Content-Disposition: ${disposition}${CRLF}${
      part.contentType === undefined ? "" : `Content-Type: ${part.contentType}${CRLF}`
    }${CRLF}`;
    pieces.push(encoder.encode(head));
    pieces.push(typeof part.content === "string" ? encoder.encode(part.content) : part.content);
    pieces.push(encoder.encode(CRLF));
  }
  if (body.ending === "closed") pieces.push(encoder.encode(`--${body.boundary}--${CRLF}`));
  const whole = Buffer.concat(pieces);
  return body.ending === "cut" ? whole.subarray(0, Math.floor(whole.byteLength / 2)) : whole;
}

/** The bytes a body is sent as. */
export function bodyBytes(body: FuzzBody): Uint8Array {
  switch (body.kind) {
    case "text":
      return new TextEncoder().encode(body.text);
    case "bytes":
      return body.bytes;
    case "multipart":
      return multipartBytes(body);
  }
}

/** Header values travel as Latin-1: a character beyond it goes as its UTF-8 bytes. */
function asLatin1(value: string): string {
  return [...value].every((character) => character.charCodeAt(0) <= 0xff)
    ? value
    : Buffer.from(value, "utf8").toString("latin1");
}

/** What a signature placeholder (`{sign-...}`) is computed from. */
export interface SignatureInput {
  /** The headers with every other placeholder filled in. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/**
 * The request a case describes: `{name}` placeholders in the path and the header values are
 * replaced by `values[name]`; then `{sign-...}` ones by `sign(name, ...)`, from the final body
 * and headers (webhook signatures). An unknown placeholder is a mistake of the test: it throws.
 */
export function toRawRequest(
  fuzzCase: FuzzCase,
  values: Readonly<Record<string, string>>,
  sign: (name: string, input: SignatureInput) => string = (name) => {
    throw new Error(`no signer for {${name}}`);
  },
): RawRequest {
  const placeholder = /\{([a-z][a-z0-9-]*)\}/g;
  const fill = (text: string) =>
    text.replace(placeholder, (whole, name: string) => {
      if (name.startsWith("sign-")) return whole;
      const value = values[name];
      if (value === undefined) throw new Error(`no value for the placeholder {${name}}`);
      return value;
    });
  const body = fuzzCase.body ? bodyBytes(fuzzCase.body) : undefined;
  const filled = fuzzCase.headers.map(([name, value]) => [name, fill(value)] as const);
  const input = { headers: filled, body: body ?? new Uint8Array() };
  const signed = (value: string) =>
    value.replace(placeholder, (_, signature: string) => sign(signature, input));
  const headers = filled.map(([name, value]) => [name, asLatin1(signed(value))] as const);
  return { method: fuzzCase.method, path: fill(fuzzCase.path), headers, ...(body ? { body } : {}) };
}
