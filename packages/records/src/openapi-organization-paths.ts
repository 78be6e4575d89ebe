import type { Model } from "@tessera/fields";
import { errorAnswers } from "./openapi-answers.js";
import type { OpenApiObject } from "./openapi-components.js";

/** `{slug}` of an organization's routes. */
const SLUG_PARAMETER: OpenApiObject = {
  name: "slug",
  in: "path",
  required: true,
  description:
    "The organization's slug. One you are not a member of is a 404, as one that does not exist.",
  schema: { type: "string", pattern: "^[a-z0-9-]{3,40}$" },
};

const OPERATIONS: ReadonlySet<string> = new Set(["get", "put", "post", "patch", "delete"]);

/**
 * A model's path items as its routes serve them: a user's as they are, an organization's
 * (`owner: "organization"`) under `/api/orgs/{slug}/…`, each taking `{slug}` and answering 403
 * to a member whose role lacks the operation's permission.
 */
export function ownerScopedPaths(
  model: Model,
  paths: Record<string, OpenApiObject>,
): Record<string, OpenApiObject> {
  if ((model.owner ?? "user") === "user") return paths;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const scoped: Record<string, OpenApiObject[keyof OpenApiObject]> = {
        parameters: [SLUG_PARAMETER, ...((item.parameters as OpenApiObject[] | undefined) ?? [])],
      };
      for (const [key, value] of Object.entries(item)) {
        if (!OPERATIONS.has(key)) continue;
        const operation = value as OpenApiObject;
        const responses = {
          ...(operation.responses as OpenApiObject),
          ...errorAnswers("forbidden"),
        };
        scoped[key] = { ...operation, responses: sortedByStatus(responses) };
      }
      return [path.replace(/^\/api\//, "/api/orgs/{slug}/"), scoped];
    }),
  );
}

/** Responses in status order, as the other operations list them. */
function sortedByStatus(responses: OpenApiObject): OpenApiObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
