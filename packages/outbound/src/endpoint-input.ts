import { BLANK, INVALID, tooLongMessage } from "@tessera/core";
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
}

/** Field name → messages, as a 422's `fields` carries them. */
export type FieldErrors = Record<string, string[]>;

/** How many entries an endpoint's event filter may hold. */
const MAXIMUM_EVENT_TYPES = 100;
const MAXIMUM_DESCRIPTION_LENGTH = 1000;
/** The checked values of an {@link EndpointInput}, only those given. */
export interface CheckedEndpointInput {
  readonly url?: string;
  readonly eventTypes?: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
}

/**
 * Checks an endpoint's fields: `url` through the outbound guard (refused: `is not allowed`, or
 * `must be written as http(s)://host/path, …` for a URL not written plainly),
 * `events` a list of event type names or `prefix.*` wildcards (duplicates dropped), `description` text of at most
 * 1,000 characters, `enabled` a boolean. `creating` requires `url`.
 */
export async function checkEndpointInput(
  input: EndpointInput,
  creating: boolean,
  policy: OutboundPolicy,
  resolveHost: ResolveHost | undefined,
): Promise<{ ok: true; value: CheckedEndpointInput } | { ok: false; fields: FieldErrors }> {
  const fields: FieldErrors = {};
  const value: {
    url?: string;
    eventTypes?: readonly string[];
    description?: string;
    enabled?: boolean;
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
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, value };
}
