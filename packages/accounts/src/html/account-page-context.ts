import type { MessageParams } from "@tessera/core";
import type { PageContext } from "@tessera/http";
import { optionalUser, sessionPageContext } from "@tessera/session";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import type { HtmlRequestContext } from "./html-routes-options.js";

/**
 * What a page of the request is written with: who is signed in, the waiting flashes (taken:
 * call it once, for the page being rendered), the CSP nonce and the request's locale.
 */
export function accountPageContext(
  context: HtmlRequestContext,
  user: User | undefined,
): PageContext {
  return sessionPageContext(context, user?.email);
}

/** Puts a flash of {@link accountMessages} in the session, in the request's locale. */
export function flashAccountMessage(
  context: HtmlRequestContext,
  kind: "notice" | "alert",
  id: AccountMessageId,
  params?: MessageParams,
): void {
  context.session.flash(kind, accountMessages.text(context.locale, id, params));
}

/**
 * The signed-in user of a page, or undefined: a session whose user is gone, or signed in before
 * the user's credentials changed, is signed out (see `optionalUser`).
 */
export function currentPageUser(
  context: HtmlRequestContext,
  users: UserStore,
): Promise<User | undefined> {
  return optionalUser(context.session, (id) => users.findById(id));
}
