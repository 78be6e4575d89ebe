import { type JsonSchema, type Model, recordJsonSchema } from "@tessera/fields";

/**
 * A standalone schema made a part of a larger one (an OpenAPI component, an event's data):
 * the document sets the dialect, not each part.
 */
export function embeddedSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}

/**
 * The JSON Schema of a record as the JSON API shows it (`recordJsonSchema` of @tessera/fields,
 * owned by a user), without `$schema`: the one the OpenAPI document and the event catalog share.
 */
export function apiRecordSchema(model: Model): JsonSchema {
  return embeddedSchema(recordJsonSchema(model));
}
