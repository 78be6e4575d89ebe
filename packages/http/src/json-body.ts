import { DEFAULT_MAXIMUM_BODY_BYTES, readBodyBytes } from "./body-bytes.js";
import {
  type BodyFailureReason,
  type BodyReadOptions,
  type BodyResult,
  bodyFailure,
} from "./body-result.js";
import { parseMediaType } from "./media-type.js";

/** The prefix of every JSON body failure message (docs/errors.md). */
export const JSON_BODY_FAILURE_PREFIX =
  "Failed to deserialize the JSON body into the target type: ";

/** The top-level JSON value a route takes. */
export type JsonShape = "object" | "array" | "any";

/** The TypeScript type of a parsed body of a given {@link JsonShape}. */
export type JsonValueOf<S extends JsonShape> = S extends "object"
  ? Record<string, unknown>
  : S extends "array"
    ? unknown[]
    : unknown;

/** Options of {@link readJsonBody}. */
export interface JsonBodyOptions<S extends JsonShape> extends BodyReadOptions {
  /** The top-level type required; default `"object"`. */
  readonly expect?: S | undefined;
}

function failure(reason: BodyFailureReason, detail: string) {
  return bodyFailure(reason, `${JSON_BODY_FAILURE_PREFIX}${detail}`);
}

/** `application/json` or a structured `+json` type, in UTF-8 (RFC 8259 §8.1). */
function isJsonContentType(header: string | null): "ok" | "not-json" | "not-utf-8" {
  const mediaType = parseMediaType(header);
  if (!mediaType) return "not-json";
  const { essence, parameters } = mediaType;
  if (essence !== "application/json" && !/^application\/[^/]+\+json$/.test(essence)) {
    return "not-json";
  }
  const charset = parameters.get("charset")?.toLowerCase();
  return charset === undefined || charset === "utf-8" || charset === "utf8" ? "ok" : "not-utf-8";
}

function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a JSON body. Every refusal is a 400 whose message starts `Failed to deserialize the JSON
 * body into the target type: `: a missing or non-JSON `Content-Type`, a body over the size cap,
 * bytes that are not UTF-8 JSON, or a top-level value of the wrong type. Never throws on input.
 *
 * @example
 * ```ts
 * import { readJsonBody } from "@tessera/http";
 *
 * async function createNote(request: Request): Promise<Response> {
 *   const body = await readJsonBody(request); // at most 1 MiB, and a JSON object
 *   if (!body.ok) return body.response; // a 400 with the deserialize message
 *   return Response.json({ title: body.value.title }, { status: 201 });
 * }
 * ```
 */
export async function readJsonBody<S extends JsonShape = "object">(
  request: Request,
  options: JsonBodyOptions<S> = {},
): Promise<BodyResult<JsonValueOf<S>>> {
  const expect: JsonShape = options.expect ?? "object";
  const maximumBytes = options.maximumBytes ?? DEFAULT_MAXIMUM_BODY_BYTES;
  const contentType = isJsonContentType(request.headers.get("content-type"));
  if (contentType === "not-json") {
    return failure("unsupported-media-type", "expected `Content-Type: application/json`");
  }
  if (contentType === "not-utf-8") {
    return failure("unsupported-media-type", "a JSON body must be UTF-8");
  }
  const bytes = await readBodyBytes(request, maximumBytes);
  if (!bytes.ok) {
    return bytes.reason === "too-large"
      ? failure("too-large", `the body is larger than ${maximumBytes} bytes`)
      : failure("unreadable", "the body could not be read");
  }
  let text: string;
  try {
    text = utf8Decoder.decode(bytes.value);
  } catch {
    return failure("malformed", "the body is not valid UTF-8");
  }
  if (text.trim() === "") return failure("malformed", "the body is empty");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure("malformed", "the body is not valid JSON");
  }
  const found = describeJsonType(value);
  if (expect !== "any" && found !== expect) {
    return failure("wrong-type", `invalid type: ${found}, expected an ${expect}`);
  }
  return { ok: true, value: value as JsonValueOf<S> };
}
