import { encodeRecord, type Model, type RecordEventAction } from "@tessera/fields";
import { hasPublicId } from "./record-key.js";
import type { RecordRow } from "./record-store.js";

/**
 * The largest event data sent whole, as JSON: 256 KiB, the same as `MAXIMUM_PAYLOAD_BYTES` of
 * @tessera/outbound (records does not depend on it), which refuses a larger payload outright.
 */
export const MAXIMUM_RECORD_EVENT_BYTES = 256 * 1024;

/** `note.created`: the event type of a model's action. */
export function recordEventType(model: Model, action: RecordEventAction): string {
  return `${model.name}.${action}`;
}

/** The key an event's data names its record by: `public_id` when the model has one, else `id`. */
export function eventKeyColumn(model: Model): "id" | "public_id" {
  return hasPublicId(model) ? "public_id" : "id";
}

/**
 * A record's event data: the record as the JSON API shows it (`encodeRecord`), or, when that
 * is over {@link MAXIMUM_RECORD_EVENT_BYTES} as JSON (a text may hold 2,000,000 characters),
 * `{ id, truncated: true }` (`public_id` for a model with one) for the receiver to fetch it:
 * a write must not fail for being too large to report.
 */
export function recordEventData(model: Model, row: RecordRow): Readonly<Record<string, unknown>> {
  const record = encodeRecord(model.fields, row);
  const bytes = new TextEncoder().encode(JSON.stringify(record)).length;
  if (bytes <= MAXIMUM_RECORD_EVENT_BYTES) return record;
  const key = eventKeyColumn(model);
  return { [key]: record[key], truncated: true };
}
