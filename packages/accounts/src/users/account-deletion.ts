import type { AccountEvents, AccountRefusal, HookRequest } from "../account-hooks.js";
import type { User } from "./user.js";
import type { UserStore } from "./user-store.js";

/**
 * What came of {@link deleteUser}: `deleted` false when the row was already gone (nothing is
 * announced then), or the refusal of `beforeUserDeleted` (nothing deleted).
 */
export type UserDeletion =
  | { readonly ok: true; readonly deleted: boolean }
  | { readonly ok: false; readonly refusal: AccountRefusal };

/**
 * Deletes a user whose deletion was confirmed, unless `beforeUserDeleted` refuses (the store
 * cascades to what they own), then announces it (`onUserDeleted`): the one way the JSON and
 * HTML routes delete an account.
 */
export async function deleteUser(
  users: UserStore,
  events: AccountEvents,
  user: User,
  at: HookRequest,
): Promise<UserDeletion> {
  const refusal = await events.mayNotDelete(user, at);
  if (refusal) return { ok: false, refusal };
  const deleted = await users.delete(user.id);
  if (deleted) await events.userDeleted(user, at);
  return { ok: true, deleted };
}
