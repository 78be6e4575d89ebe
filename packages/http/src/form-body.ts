import { DEFAULT_MAXIMUM_BODY_BYTES, readBodyBytes } from "./body-bytes.js";
import { type BodyReadOptions, type BodyResult, bodyFailure } from "./body-result.js";
import { parseMediaType } from "./media-type.js";

/** The prefix of every form body failure message. */
export const FORM_BODY_FAILURE_PREFIX = "Failed to deserialize form body: ";

// Not fatal: the urlencoded parser itself turns bad UTF-8 into U+FFFD (WHATWG URL §5.1).
const utf8Decoder = new TextDecoder("utf-8");

/**
 * Reads an `application/x-www-form-urlencoded` body into URLSearchParams (repeated names keep
 * every value, in order). Refusals are 400s: another `Content-Type` (multipart included), or a
 * body over the size cap. Never throws on input.
 */
export async function readFormBody(
  request: Request,
  options: BodyReadOptions = {},
): Promise<BodyResult<URLSearchParams>> {
  const maximumBytes = options.maximumBytes ?? DEFAULT_MAXIMUM_BODY_BYTES;
  if (
    parseMediaType(request.headers.get("content-type"))?.essence !==
    "application/x-www-form-urlencoded"
  ) {
    return bodyFailure(
      "unsupported-media-type",
      `${FORM_BODY_FAILURE_PREFIX}expected \`Content-Type: application/x-www-form-urlencoded\``,
    );
  }
  const bytes = await readBodyBytes(request, maximumBytes);
  if (!bytes.ok) {
    return bytes.reason === "too-large"
      ? bodyFailure(
          "too-large",
          `${FORM_BODY_FAILURE_PREFIX}the body is larger than ${maximumBytes} bytes`,
        )
      : bodyFailure("unreadable", `${FORM_BODY_FAILURE_PREFIX}the body could not be read`);
  }
  // The leading "&" is an empty pair, which the parser skips; it stops URLSearchParams from
  // dropping a leading "?", which a form body does not have.
  return { ok: true, value: new URLSearchParams(`&${utf8Decoder.decode(bytes.value)}`) };
}
