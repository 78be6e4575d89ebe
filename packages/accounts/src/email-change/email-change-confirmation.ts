import { type Clock, fail, ok, type Result } from "@tessera/core";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import type { EmailChangeStore } from "./email-change-store.js";
import { consumeEmailChange } from "./email-change-tokens.js";

/** What using a change's link reads and writes. */
export interface EmailChangeConfirmationParts {
  readonly users: UserStore;
  readonly emailChanges: EmailChangeStore;
  readonly events: AccountEvents;
  readonly clock: Clock;
}

/**
 * Uses a change's link: the token is used up, the user gets the new address (confirmed now) and
 * `onEmailChanged` is announced with the address it replaced. `invalid` for a token that is
 * unknown, used, replaced or expired, or whose user is gone; `email-taken` when another account
 * took the address meanwhile (the link is used up all the same, and nothing changed).
 */
export async function confirmEmailChange(
  parts: EmailChangeConfirmationParts,
  token: string,
  at: HookRequest,
): Promise<Result<User, "invalid" | "email-taken">> {
  const change = await consumeEmailChange(parts.emailChanges, token, parts.clock);
  if (!change.ok) return change;
  const before = await parts.users.findById(change.value.userId);
  if (!before) return fail("invalid");
  const changed = await parts.users.changeEmail(before.id, change.value.newEmail, parts.clock());
  if (!changed.ok) return fail(changed.reason === "email-taken" ? "email-taken" : "invalid");
  await parts.events.emailChanged(changed.value, before.email, at);
  return ok(changed.value);
}
