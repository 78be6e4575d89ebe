import { fail, ok, type Result, unstorableText } from "@tessera/core";
import { readHeader, type WebhookDelivery } from "./delivery.js";

/** A parsed event: its JSON value and raw text. */
export interface EventPayload {
  readonly text: string;
  readonly value: unknown;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a raw body as JSON; the failure is the reason of the 400 message. */
export function parseEventPayload(body: Uint8Array): Result<EventPayload, string> {
  let text: string;
  let value: unknown;
  try {
    text = strictUtf8.decode(body);
    value = JSON.parse(text);
  } catch {
    return fail("the body is not valid JSON");
  }
  return ok({ text, value });
}

/**
 * The event id as text from a JSON `id` (string or number) or from a custom reader. Numbers
 * outside ±(2^53 − 1) are refused: JavaScript has already rounded them, and two different
 * events would share one id and be deduplicated into one. So is text holding a NUL (which
 * PostgreSQL cannot store and SQLite can) or a lone surrogate (which databases store as U+FFFD,
 * so two ids would become one).
 */
export function readEventId(id: unknown): Result<string, string> {
  if (id === undefined) return fail("missing field `id`");
  if (typeof id === "string" && id.length > 0) {
    const problem = unstorableText(id);
    return problem ? fail(`invalid value for field \`id\`: ${problem}`) : ok(id);
  }
  if (typeof id === "number" && Number.isFinite(id)) {
    if (Number.isInteger(id) && !Number.isSafeInteger(id)) {
      return fail(
        "invalid value for field `id`: integer beyond ±9007199254740991; send it as a string",
      );
    }
    return ok(String(id));
  }
  return fail("invalid type for field `id`: expected a non-empty string or a number");
}

/** The `id` of a JSON object body, as text; any other body is of the wrong type. */
export function bodyEventId(value: unknown): Result<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail("invalid type: expected a JSON object");
  }
  return readEventId((value as { id?: unknown }).id);
}

/**
 * The event id carried by request header `name` (as spelled, for the message); empty is
 * missing. HTTP forbids a NUL in a header, but headers handed over as a plain object were not
 * necessarily parsed by an HTTP server: such text is refused as in a body's `id`.
 */
export function headerEventId(delivery: WebhookDelivery, name: string): Result<string, string> {
  const id = readHeader(delivery.headers, name.toLowerCase());
  if (!id) return fail(`missing header \`${name}\``);
  const problem = unstorableText(id);
  return problem ? fail(`invalid value for header \`${name}\`: ${problem}`) : ok(id);
}
