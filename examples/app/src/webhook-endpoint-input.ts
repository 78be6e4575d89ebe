import type { Locale } from "@tessera/core";
import { type EndpointInput, eventFilterTakes, isEventFilterEntry } from "@tessera/outbound";
import { outboundMessages } from "./outbound-messages.js";
import { APP_EVENT_TYPES } from "./webhook-endpoint-json.js";

const TEXT_FIELDS = ["url", "description"] as const;

/**
 * A JSON body's endpoint fields, checked for shape before the package checks their values: an
 * object with only `url`, `events`, `description` (and `enabled` on a change), text without
 * NUL, `events` a list of the app's event names or wildcards that take one (`note.*`). A wrong shape is a 400 message; a name the app
 * does not send is a 422 message on `events`.
 */
export function readEndpointBody(
  body: Record<string, unknown>,
  creating: boolean,
  locale: Locale | undefined,
):
  | { ok: true; input: EndpointInput }
  | { ok: false; status: 400; message: string }
  | { ok: false; status: 422; fields: Record<string, string[]> } {
  const text = outboundMessages.text.bind(outboundMessages, locale);
  const known = creating
    ? ["url", "events", "description"]
    : ["url", "events", "description", "enabled"];
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
      isEventFilterEntry(entry) && APP_EVENT_TYPES.some((type) => eventFilterTakes([entry], type));
    if (!events.every(takesOne)) {
      return { ok: false, status: 422, fields: { events: [text("outbound.unknown_event")] } };
    }
  }
  return { ok: true, input: body };
}
