import type { Locale } from "@tessera/core";
import type { EndpointInput } from "../endpoint-input.js";
import { eventFilterTakes, isEventFilterEntry } from "../event-types.js";
import { outboundMessages } from "./outbound-messages.js";

const TEXT_FIELDS = ["url", "description"] as const;

/** Whether `value` is an object whose values are all text: the shape of `headers`. */
function isTextObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((each) => typeof each === "string");
}

/**
 * A JSON body's endpoint fields, checked for shape before the package checks their values: an
 * object with only `url`, `events`, `description`, `headers`, `rate_limit` (and `enabled` on a
 * change), text without NUL, `headers` an object of text values, `rate_limit` a number, `events`
 * a list of `eventTypes` or wildcards that take one of them (`note.*`). A wrong shape is a 400
 * message; a name the app does not send is a 422 message on `events`. The input given on is
 * the package's: `rate_limit` is its `rateLimit`.
 */
export function readEndpointBody(
  body: Record<string, unknown>,
  creating: boolean,
  eventTypes: readonly string[],
  locale: Locale | undefined,
):
  | { ok: true; input: EndpointInput }
  | { ok: false; status: 400; message: string }
  | { ok: false; status: 422; fields: Record<string, string[]> } {
  const text = outboundMessages.text.bind(outboundMessages, locale);
  const known = ["url", "events", "description", "headers", "rate_limit"];
  if (!creating) known.push("enabled");
  for (const field of Object.keys(body)) {
    if (!known.includes(field)) {
      return { ok: false, status: 400, message: text("outbound.unknown_field", { field }) };
    }
  }
  for (const field of TEXT_FIELDS) {
    const value = body[field];
    if (value === undefined || (value === null && field === "description")) continue;
    if (typeof value !== "string") {
      return { ok: false, status: 400, message: text("outbound.not_a_string", { field }) };
    }
    if (value.includes("\u0000")) {
      return { ok: false, status: 400, message: text("outbound.nul_character", { field }) };
    }
  }
  if (body.enabled !== undefined && typeof body.enabled !== "boolean") {
    return {
      ok: false,
      status: 400,
      message: text("outbound.not_a_boolean", { field: "enabled" }),
    };
  }
  if (body.headers !== undefined && body.headers !== null && !isTextObject(body.headers)) {
    return { ok: false, status: 400, message: text("outbound.headers_not_object") };
  }
  const rateLimit = body.rate_limit;
  if (rateLimit !== undefined && rateLimit !== null && typeof rateLimit !== "number") {
    return {
      ok: false,
      status: 400,
      message: text("outbound.not_a_number", { field: "rate_limit" }),
    };
  }
  const events = body.events;
  if (events !== undefined && events !== null) {
    if (!Array.isArray(events) || !events.every((event) => typeof event === "string")) {
      return { ok: false, status: 400, message: text("outbound.events_not_list") };
    }
    if (events.some((event) => event.includes("\u0000"))) {
      return {
        ok: false,
        status: 400,
        message: text("outbound.nul_character", { field: "events" }),
      };
    }
    // A name the app sends, or a wildcard (`note.*`) that takes at least one of them.
    const takesOne = (entry: string) =>
      isEventFilterEntry(entry) && eventTypes.some((type) => eventFilterTakes([entry], type));
    if (!events.every(takesOne)) {
      return { ok: false, status: 422, fields: { events: [text("outbound.unknown_event")] } };
    }
  }
  const { rate_limit: _rateLimit, ...rest } = body;
  return { ok: true, input: rateLimit === undefined ? rest : { ...rest, rateLimit } };
}
