import { isPublicId, type Model } from "@tessera/fields";
import type { RecordKey, RecordRow } from "./record-store.js";

const ROW_ID = /^[1-9][0-9]{0,15}$/;

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
  return rowIdOf(param) === undefined ? undefined : { id: Number(param) };
}

/** A row id from a path segment (`{file_id}`), or undefined when it cannot be one. */
export function rowIdOf(param: string | undefined): number | undefined {
  if (param === undefined || !ROW_ID.test(param)) return undefined;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The `{id}` of a stored record in its routes: the public id, or the integer id. */
export function routeIdOf(model: Model, row: RecordRow): string {
  return String(hasPublicId(model) ? row.public_id : row.id);
}
