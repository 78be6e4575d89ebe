/** A JSON Schema as plain data. */
type Schema = Readonly<Record<string, unknown>>;

/** Deeper than any record's schema: a bound, so a cyclic or hostile schema cannot recurse forever. */
const MAXIMUM_DEPTH = 16;

const STRING_EXAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  email: "someone@example.com",
  uri: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
};

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function exampleOfType(type: unknown, schema: Schema, depth: number): unknown {
  switch (type) {
    case "object":
      return objectExample(schema, depth);
    case "array":
      return isSchema(schema.items) ? [exampleOfSchemaAt(schema.items, depth + 1)] : [];
    case "string":
      return STRING_EXAMPLES[String(schema.format)] ?? "example";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    default:
      return null;
  }
}

function objectExample(schema: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isSchema(property)) example[name] = exampleOfSchemaAt(property, depth + 1);
  }
  return example;
}

function exampleOfSchemaAt(schema: Schema, depth: number): unknown {
  if (depth > MAXIMUM_DEPTH) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choices = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(choices) && isSchema(choices[0])) {
    return exampleOfSchemaAt(choices[0], depth + 1);
  }
  // `["string", "null"]`: the first type that is not null says more.
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((each) => each !== "null") ?? types[0];
  return exampleOfType(type ?? (isSchema(schema.properties) ? "object" : undefined), schema, depth);
}

/**
 * A value that fits `schema`, for a test event: its `const`, first example, default or enum
 * value where it has one, else a plain value of its type (every property of an object, one
 * item of an array, the first choice of a `oneOf`). A `$ref` is not followed: the event-type
 * catalog's schemas are self-contained.
 */
export function exampleOfSchema(schema: Schema): unknown {
  return exampleOfSchemaAt(schema, 0);
}
