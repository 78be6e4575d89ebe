import type { Model } from "@tessera/fields";
import { DEFAULT_LIST_LIMIT } from "@tessera/http";
import { jsonRecordsPath } from "./json-record-paths.js";
import { errorAnswers, idParameter, jsonAnswer } from "./openapi-answers.js";
import { attachmentPaths } from "./openapi-attachment-paths.js";
import { componentRef, type OpenApiObject } from "./openapi-components.js";
import { modelSchemaNames, operationId } from "./openapi-names.js";
import { ownerScopedPaths } from "./openapi-organization-paths.js";

/**
 * The path items of a model's JSON routes: `/api/<table>` (list, create), `/api/<table>/{id}`
 * (show, update, delete) and its attachment routes, as `jsonRecordRoutes` answers them; an
 * organization's model's under `/api/orgs/{slug}`.
 */
export function recordPaths(model: Model): Record<string, OpenApiObject> {
  return ownerScopedPaths(model, userPaths(model));
}

/** The path items of a model's routes at their own path, `/api/<table>`. */
function userPaths(model: Model): Record<string, OpenApiObject> {
  const path = jsonRecordsPath(model);
  const names = modelSchemaNames(model);
  const record = componentRef("schemas", names.record);
  const tags = [model.table];
  const locked = model.fields.some((field) => field.type === "lock_version");
  const yours = model.owner === "organization" ? "the organization's" : "your";
  return {
    [path]: {
      get: {
        operationId: operationId("list", model.table),
        tags,
        summary: `${yours[0]!.toUpperCase()}${yours.slice(1)} ${model.table}, newest first`,
        parameters: ["limit", "offset", "after"].map((name) => componentRef("parameters", name)),
        responses: {
          "200": {
            ...jsonAnswer(`A page of ${yours} ${model.table}.`, { type: "array", items: record }),
            headers: {
              Link: {
                description: `When more records follow: \`<${path}?limit=${DEFAULT_LIST_LIMIT}&after=<last id>>; rel="next"\` (the page's own limit).`,
                schema: { type: "string" },
              },
            },
          },
          ...errorAnswers("badRequest", "unauthorized"),
        },
      },
      post: {
        operationId: operationId("create", model.name),
        tags,
        summary: `Create a ${model.name}`,
        requestBody: {
          required: true,
          content: { "application/json": { schema: componentRef("schemas", names.create) } },
        },
        responses: {
          "201": jsonAnswer(`The new ${model.name}.`, record),
          ...errorAnswers("badRequest", "unauthorized", "validationFailed"),
        },
      },
    },
    [`${path}/{id}`]: {
      parameters: [idParameter(model)],
      get: {
        operationId: operationId("get", model.name),
        tags,
        summary: `One of ${yours} ${model.table}`,
        responses: {
          "200": jsonAnswer(`The ${model.name}.`, record),
          ...errorAnswers("unauthorized", "notFound"),
        },
      },
      patch: {
        operationId: operationId("update", model.name),
        tags,
        summary: `Change a ${model.name}: keys left out keep their values`,
        requestBody: {
          required: true,
          content: { "application/json": { schema: componentRef("schemas", names.update) } },
        },
        responses: {
          "200": jsonAnswer(`The updated ${model.name}.`, record),
          ...errorAnswers(
            "badRequest",
            "unauthorized",
            "notFound",
            ...(locked ? (["conflict"] as const) : []),
            "validationFailed",
          ),
        },
      },
      delete: {
        operationId: operationId("delete", model.name),
        tags,
        summary: `Delete a ${model.name} and its files`,
        responses: {
          "204": { description: "Deleted." },
          ...errorAnswers("unauthorized", "notFound"),
        },
      },
    },
    ...attachmentPaths(model),
  };
}
