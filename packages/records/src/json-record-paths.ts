import type { Model } from "@tessera/fields";

/**
 * Where a model's JSON routes live: `/api/<table>` (`/api/posts`), or under a scope's prefix
 * (`/api/orgs/:slug/projects`); a record is `<path>/{id}` and an attachment
 * `<path>/{id}/<field>`. The routes and the OpenAPI document both build their paths from it.
 */
export function jsonRecordsPath(model: Model, pathPrefix = ""): string {
  return `/api${pathPrefix}/${model.table}`;
}
