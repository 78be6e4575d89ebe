// Checks real answers against an OpenAPI 3.1 document with Ajv (draft 2020-12, formats on):
// the records package's tests and the example app's use it on the same document builder.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;

/** What {@link openApiChecker} gives: the problems of an answer, empty when it conforms. */
export interface OpenApiChecker {
  /** The path template of `path` (`/api/posts/7` → `/api/posts/{id}`), or undefined. */
  templateOf(path: string): string | undefined;
  /**
   * Why an answer does not conform: the status is not documented for the operation, or the
   * JSON body does not validate against its schema. Empty when it conforms.
   */
  responseProblems(method: string, path: string, status: number, body: unknown): string[];
  /** Why a JSON request body does not validate against the operation's body schema. */
  requestProblems(method: string, path: string, body: unknown): string[];
}

/** `{ $ref: "#/a/b" }` replaced by what it points at, everywhere (the document has no cycles). */
function resolved(document: Json, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => resolved(document, item));
  if (typeof value !== "object" || value === null) return value;
  const ref = (value as Json).$ref;
  if (typeof ref === "string" && ref.startsWith("#/")) {
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Json)[key], document);
    return resolved(document, target);
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, resolved(document, item)]),
  );
}

/** A checker of answers and bodies against `document` (an OpenAPI 3.1 document as JSON). */
export function openApiChecker(document: Json): OpenApiChecker {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();
  const validate = (key: string, schema: unknown) => {
    let validator = compiled.get(key);
    if (!validator) {
      validator = ajv.compile(resolved(document, schema) as Json);
      compiled.set(key, validator);
    }
    return validator;
  };
  const paths = document.paths as Record<string, Json>;
  const templates = Object.keys(paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    literal: template.replace(/\{[^}]+\}/g, "").length,
  }));

  function templateOf(path: string): string | undefined {
    const bare = path.split("?")[0]!;
    // The most literal match wins: `/api/posts/{id}/photos` over `/api/posts/{id}/{x}`.
    return templates
      .filter(({ pattern }) => pattern.test(bare))
      .sort((a, b) => b.literal - a.literal)[0]?.template;
  }

  function operation(method: string, path: string): { key: string; operation: Json } | string {
    const template = templateOf(path);
    if (!template) return `${path}: no path of the document matches`;
    const found = paths[template]?.[method.toLowerCase()] as Json | undefined;
    if (!found) return `${method} ${template}: not in the document`;
    return { key: `${method} ${template}`, operation: found };
  }

  const problemsOf = (validator: ValidateFunction, body: unknown, where: string) =>
    validator(body)
      ? []
      : (validator.errors ?? []).map(
          (error) => `${where}: ${error.instancePath || "(body)"} ${error.message}`,
        );

  return {
    templateOf,
    responseProblems(method, path, status, body) {
      const found = operation(method, path);
      if (typeof found === "string") return [found];
      const responses = found.operation.responses as Json;
      const answer = responses[String(status)];
      if (!answer) return [`${found.key}: status ${status} is not documented`];
      const content = (resolved(document, answer) as Json).content as Json | undefined;
      const json = content?.["application/json"] as Json | undefined;
      if (!json) {
        return body === undefined
          ? []
          : [`${found.key} ${status}: a body where none is documented`];
      }
      const where = `${found.key} ${status}`;
      return problemsOf(validate(where, json.schema), body, where);
    },
    requestProblems(method, path, body) {
      const found = operation(method, path);
      if (typeof found === "string") return [found];
      const requestBody = resolved(document, found.operation.requestBody) as Json | undefined;
      const json = (requestBody?.content as Json | undefined)?.["application/json"] as
        | Json
        | undefined;
      if (!json) return [`${found.key}: takes no JSON body`];
      const where = `${found.key} body`;
      return problemsOf(validate(where, json.schema), body, where);
    },
  };
}
