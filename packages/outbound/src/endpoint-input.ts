import { BLANK, INVALID, tooLongMessage } from "@tessera/core";
import { checkEndpointHeaders } from "./endpoint-headers.js";
import { checkRateLimit, RATE_LIMIT_INVALID } from "./endpoint-rate-limit.js";
import { isEventFilterEntry } from "./event-types.js";
import { checkOutboundTarget, type OutboundPolicy, type ResolveHost } from "./outbound-policy.js";

/** What an owner gives to create or change an endpoint (every field optional on a change). */
export interface EndpointInput {
  readonly url?: unknown;
  /** The event types it receives (the JSON API's name): a list, empty for every type. */
  readonly events?: unknown;
  readonly description?: unknown;
  /** Changes only: false disables the endpoint, true enables it again. */
  readonly enabled?: unknown;
  /**
   * Custom headers every delivery carries: an object of name → text value (at most 10).
   * Given, they replace the endpoint's; `null` or `{}` removes them.
   */
  readonly headers?: unknown;
  /** Deliveries a second the endpoint takes at most, 1 to 10,000; `null` removes the limit. */
  readonly rateLimit?: unknown;
}

/** Field name → messages, as a 422's `fields` carries them. */
export type FieldErrors = Record<string, string[]>;

/** How many entries an endpoint's event filter may hold. */
const MAXIMUM_EVENT_TYPES = 100;
const MAXIMUM_DESCRIPTION_LENGTH = 1000;
/** The checked values of an {@link EndpointInput}, only those given. */
export interface CheckedEndpointInput {
  readonly url?: string | undefined;
  readonly eventTypes?: readonly string[] | undefined;
  readonly description?: string | undefined;
  readonly enabled?: boolean | undefined;
  /** Name → value, in clear (sealed before they are stored); empty to remove them. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly rateLimit?: number | null | undefined;
}

/**
 * Checks an endpoint's fields: `url` through the outbound guard (refused: `is not allowed`, or
 * `must be written as http(s)://host/path, …` for a URL not written plainly),
 * `events` a list of event type names or `prefix.*` wildcards (duplicates dropped), `description` text of at most
 * 1,000 characters, `enabled` a boolean, `headers` by `checkEndpointHeaders` (its messages:
 * `HEADER_NAME_INVALID`, `HEADER_NAME_RESERVED`, `HEADER_NAME_DUPLICATE`, `HEADER_VALUE_INVALID`,
 * `TOO_MANY_HEADERS`), `rateLimit` a whole number from 1 to 10,000 or null
 * (`RATE_LIMIT_INVALID`). `creating` requires `url`.
 */
export async function checkEndpointInput(
  input: EndpointInput,
  creating: boolean,
  policy: OutboundPolicy,
  resolveHost: ResolveHost | undefined,
): Promise<{ ok: true; value: CheckedEndpointInput } | { ok: false; fields: FieldErrors }> {
  const fields: FieldErrors = {};
  const value: {
    url?: string | undefined;
    eventTypes?: readonly string[] | undefined;
    description?: string | undefined;
    enabled?: boolean | undefined;
    headers?: Readonly<Record<string, string>> | undefined;
    rateLimit?: number | null | undefined;
  } = {};
  if (input.url === undefined || input.url === null || input.url === "") {
    if (creating) fields.url = [BLANK];
  } else if (typeof input.url !== "string") {
    fields.url = [INVALID];
  } else {
    const checked = await checkOutboundTarget(input.url.trim(), policy, resolveHost);
    if (checked.ok) value.url = checked.url.href;
    else fields.url = [checked.fieldMessage];
  }
  if (input.events !== undefined && input.events !== null) {
    const types = input.events;
    if (
      !Array.isArray(types) ||
      types.length > MAXIMUM_EVENT_TYPES ||
      !types.every(isEventFilterEntry)
    ) {
      fields.events = [INVALID];
    } else {
      value.eventTypes = [...new Set(types as string[])];
    }
  }
  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description !== "string" || input.description.includes("\u0000")) {
      fields.description = [INVALID];
    } else if (input.description.length > MAXIMUM_DESCRIPTION_LENGTH) {
      fields.description = [tooLongMessage(MAXIMUM_DESCRIPTION_LENGTH)];
    } else {
      value.description = input.description;
    }
  }
  if (input.enabled !== undefined) {
    if (typeof input.enabled === "boolean") value.enabled = input.enabled;
    else fields.enabled = [INVALID];
  }
  if (input.headers !== undefined) {
    const checked = checkEndpointHeaders(input.headers);
    if (checked.ok) value.headers = checked.headers;
    else fields.headers = checked.messages;
  }
  if (input.rateLimit !== undefined) {
    const checked = checkRateLimit(input.rateLimit);
    if (checked) value.rateLimit = checked.value;
    else fields.rateLimit = [RATE_LIMIT_INVALID];
  }
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, value };
}
