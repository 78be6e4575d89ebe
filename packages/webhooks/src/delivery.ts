import { utf8 } from "@tessera/crypto";

/**
 * Request headers in any of the usual shapes: WHATWG `Headers`, a plain object with names in
 * any case, or Node's `IncomingHttpHeaders` (lower-case names, string or string[] values).
 */
export type HeaderSource =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined };

/** A raw request body: the exact bytes received, or text that was received as UTF-8. */
export type BodySource = string | Uint8Array | ArrayBuffer;

/** One inbound webhook request as a verifier sees it: headers, the raw body and the URL. */
export interface WebhookDelivery {
  readonly headers: HeaderSource;
  /** The raw body, never a parsed and re-serialized one: signatures cover the exact bytes. */
  readonly body: BodySource;
  /** The request URL, absolute or a path such as Node's `request.url` (token verifiers read it). */
  readonly url?: string | URL | undefined;
}

function isHeaders(headers: HeaderSource): headers is Headers {
  return typeof (headers as Headers).get === "function";
}

/**
 * Reads one header by its lower-case name. Repeated values are joined with ", ", as WHATWG
 * `Headers` does, so every header shape gives the same text.
 */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (isHeaders(headers)) return headers.get(name) ?? undefined;
  let value = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (value === undefined) {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  if (value === undefined || typeof value === "string") return value;
  return value.join(", ");
}

/** The body as bytes, without copying when it already is bytes. */
export function bodyBytes(body: BodySource): Uint8Array {
  if (typeof body === "string") return utf8(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** The body as a hash input: text stays text (Node hashes it as UTF-8 without a copy). */
export function signedBody(body: BodySource): string | Uint8Array {
  return body instanceof ArrayBuffer ? new Uint8Array(body) : body;
}
