import { JSON_SCHEMA_DIALECT, type JsonSchema, type Model } from "@tessera/fields";
import { apiRecordSchema } from "./api-record-schema.js";
import {
  eventKeyColumn,
  MAXIMUM_RECORD_EVENT_BYTES,
  recordEventType,
} from "./record-event-data.js";

/** One event type a model's records send: for a catalog of the app's events. */
export interface RecordEventType {
  /** `note.created`. */
  readonly name: string;
  /** `A note was created.` */
  readonly description: string;
  /** The JSON Schema (2020-12, self-contained) of the event's `data`. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * The event types `models` declare (`defineModel`'s `events`), model by model in created,
 * updated, deleted order, each with the JSON Schema of its `data`: the record as the JSON API
 * shows it (the OpenAPI document's record schema), or `{ id, truncated: true }` (`public_id`
 * for a model with one) when that is over 256 KiB as JSON.
 */
export function recordEventTypes(models: readonly Model[]): readonly RecordEventType[] {
  return models.flatMap((model) =>
    (model.events ?? []).map((action) => ({
      name: recordEventType(model, action),
      description: `${indefiniteArticle(model.name)} ${model.name.replaceAll("_", " ")} was ${action}.`,
      schema: eventDataSchema(model, action === "deleted"),
    })),
  );
}

function eventDataSchema(model: Model, deleted: boolean): JsonSchema {
  const record = apiRecordSchema(model);
  const key = eventKeyColumn(model);
  // The key's schema is the record's own, so the two shapes never disagree about it.
  const keySchema = (record.properties as Readonly<Record<string, JsonSchema>>)[key]!;
  const truncated: JsonSchema = {
    title: `${model.name} truncated`,
    description: `Sent instead of the record when it is over ${MAXIMUM_RECORD_EVENT_BYTES} bytes as JSON${deleted ? "" : ": fetch it from the API"}.`,
    type: "object",
    properties: { [key]: keySchema, truncated: { const: true } },
    required: [key, "truncated"],
    additionalProperties: false,
  };
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: `${model.name} event data`,
    description: deleted
      ? "The record as the JSON API showed it before it was deleted."
      : "The record as the JSON API shows it.",
    oneOf: [record, truncated],
  };
}

/** `a` or `an` before a model's name, by its first letter (`an order`, `a user`). */
function indefiniteArticle(name: string): string {
  return /^[aeio]/.test(name) ? "An" : "A";
}
