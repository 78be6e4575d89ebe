import { addFieldError, type FieldErrors } from "../messages.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import type { OperatorColumn, OperatorColumnValue } from "./operator-columns.js";

/**
 * The columns a user edits in their profile: those sign-up accepts, but never a secret one (a
 * user's own form would show it).
 */
export function profileColumns(operatorColumns: readonly OperatorColumn[]): OperatorColumn[] {
  return operatorColumns.filter((column) => column.acceptedAtSignup && !column.secret);
}

/**
 * Writes the profile `input` gives (column name → raw value; a column it leaves out keeps its
 * value), each parsed by its column as at sign-up: the user as changed, or every failing
 * field's messages with nothing written. The caller has refused names that are no profile
 * column.
 */
export async function updateProfile(
  users: UserStore,
  columns: readonly OperatorColumn[],
  user: User,
  input: Readonly<Record<string, unknown>>,
  now: number,
): Promise<
  { readonly ok: true; readonly user: User } | { readonly ok: false; readonly fields: FieldErrors }
> {
  const values: Record<string, OperatorColumnValue> = {};
  const fields: FieldErrors = {};
  for (const column of columns) {
    if (!Object.hasOwn(input, column.name)) continue;
    const parsed = column.parse(input[column.name]);
    if (parsed.ok) values[column.name] = parsed.value;
    else addFieldError(fields, column.name, parsed.reason);
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  // Nothing to write: the row, its update time included, stays as it is.
  if (Object.keys(values).length === 0) return { ok: true, user };
  const changed = await users.updateColumns(user.id, values, now);
  return { ok: true, user: changed ?? user };
}
