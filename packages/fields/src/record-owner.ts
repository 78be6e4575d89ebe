import type { Model } from "./field.js";

/**
 * Who a model's records belong to: a user (the default; the table has `user_id`) or an
 * organization (`organization_id`, plus `created_by`, the member who created the record).
 */
export type RecordOwnerKind = "user" | "organization";

/** The table the owner column `user_id` references; a record write needs its owner's row. */
export const OWNER_TABLE = "users";

/** The table `organization_id` references: `@tessera/organizations`' organizations. */
export const ORGANIZATION_TABLE = "organizations";

/** `defineModel`'s `owner` values, for checking one that came from outside the types. */
export const RECORD_OWNER_KINDS: readonly RecordOwnerKind[] = ["user", "organization"];

/** Who owns the model's records: its declared owner, `user` when it declares none. */
export function ownerKindOf(model: Pick<Model, "owner">): RecordOwnerKind {
  return model.owner ?? "user";
}

/** The column naming a record's owner: `user_id`, or `organization_id`. */
export function ownerColumnOf(model: Pick<Model, "owner">): "user_id" | "organization_id" {
  return ownerKindOf(model) === "organization" ? "organization_id" : "user_id";
}

/** The table the owner column references: `users`, or `organizations`. */
export function ownerTableOf(model: Pick<Model, "owner">): string {
  return ownerKindOf(model) === "organization" ? ORGANIZATION_TABLE : OWNER_TABLE;
}

/**
 * The columns a model's table has for its owner besides its fields: `user_id`, or
 * `organization_id` and `created_by`. A field may not take one of these names.
 */
export function ownerColumnsOf(model: Pick<Model, "owner">): readonly string[] {
  return ownerKindOf(model) === "organization" ? ["organization_id", "created_by"] : ["user_id"];
}
