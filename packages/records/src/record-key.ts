import { isPublicId, type Model } from "@tessera/fields";
import { pathId } from "@tessera/http";
import type { RecordKey, RecordRow } from "./record-store.js";

/** True when the model's routes name records by `public_id`. */
export function hasPublicId(model: Model): boolean {
  return model.fields.some((field) => field.type === "public_id");
}

/**
 * The record a route's `{id}` names: a public id for a model that has one, else a positive
 * integer. Anything else names no record (a 404), without a query.
 */
export function recordKeyOf(model: Model, param: string | undefined): RecordKey | undefined {
  if (param === undefined) return undefined;
  if (hasPublicId(model)) return isPublicId(param) ? { publicId: param } : undefined;
  const id = pathId(param);
  return id === undefined ? undefined : { id };
}

/** The `{id}` of a stored record in its routes: the public id, or the integer id. */
export function routeIdOf(model: Model, row: RecordRow): string {
  return String(hasPublicId(model) ? row.public_id : row.id);
}
