// The pieces of an operation that the record and attachment paths share.
import { type JsonSchema, type Model, recordJsonSchema } from "@tessera/fields";
import { componentRef, ERROR_RESPONSES, type OpenApiObject } from "./openapi-components.js";
import { hasPublicId } from "./record-key.js";

const STATUS_OF = {
  badRequest: "400",
  unauthorized: "401",
  forbidden: "403",
  notFound: "404",
  conflict: "409",
  validationFailed: "422",
  rangeNotSatisfiable: "416",
} as const satisfies Record<keyof typeof ERROR_RESPONSES, string>;

/** The error answers `names`, as `responses` entries that point at `components.responses`. */
export function errorAnswers(
  ...names: ReadonlyArray<keyof typeof ERROR_RESPONSES>
): Record<string, OpenApiObject> {
  return Object.fromEntries(
    names.map((name) => [STATUS_OF[name], componentRef("responses", ERROR_RESPONSES[name])]),
  );
}

/** A JSON answer whose body is `schema`. */
export function jsonAnswer(description: string, schema: OpenApiObject): OpenApiObject {
  return { description, content: { "application/json": { schema } } };
}

/** `{id}` of a model's routes: the public id when the model has one, else the integer id. */
export function idParameter(model: Model): OpenApiObject {
  const properties = recordJsonSchema(model).properties as Readonly<Record<string, JsonSchema>>;
  const publicId = hasPublicId(model) ? properties.public_id : undefined;
  return {
    name: "id",
    in: "path",
    required: true,
    description: publicId
      ? "The record's `public_id`; an unknown one is a 404."
      : "The record's `id`; one that is not a positive integer without leading zeros is a 404.",
    schema: publicId ?? { type: "integer", minimum: 1 },
  };
}
