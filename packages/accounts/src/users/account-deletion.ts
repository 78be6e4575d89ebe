import type { AccountEvents, HookRequest } from "../account-hooks.js";
import type { User } from "./user.js";
import type { UserStore } from "./user-store.js";

/**
 * Deletes a user whose deletion was confirmed (the store cascades to what they own), then
 * announces it (`onUserDeleted`): the one way the JSON and HTML routes delete an account.
 * False when the row was already gone; then nothing is announced.
 */
export async function deleteUser(
  users: UserStore,
  events: AccountEvents,
  user: User,
  at: HookRequest,
): Promise<boolean> {
  const deleted = await users.delete(user.id);
  if (deleted) await events.userDeleted(user, at);
  return deleted;
}
