import { humanizeFieldName, type Model } from "@tessera/fields";

/** The 409 message of an update that sent a stale `lock_version`. */
export const STALE_RECORD_MESSAGE =
  "This record was changed by someone else: reload it and try again";

/** `Post`, `Blog post`: the model's name as pages and flashes show it. */
export function modelTitle(model: Model): string {
  return humanizeFieldName(model.name);
}

/** The flash after a create, update or delete from an HTML form: `Post was created.` */
export function recordFlash(model: Model, action: "created" | "updated" | "deleted"): string {
  return `${modelTitle(model)} was ${action}.`;
}
