import { fullMessage } from "@tessera/fields/messages";
import { type Route, seeOther, withMiddleware } from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { readAccountForm } from "../html/account-form.js";
import { flashAccountMessage } from "../html/account-page-context.js";
import { accountFieldName } from "../html/form-fields.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type { HtmlAccountRoutesOptions, SignedInContext } from "../html/html-routes-options.js";
import { signedInPage } from "../html/signed-in-page.js";
import { profileColumns, updateProfile } from "./update-profile.js";

/**
 * `POST /account/profile` (signed in): the profile form of `/account`, the operator columns
 * sign-up accepts. 303 to `/account` with `Your profile has been updated.`, or with an alert
 * naming each failing field's message; nothing is written then.
 */
export function htmlProfileRoutes(options: HtmlAccountRoutesOptions): Route<MaybeSessionContext>[] {
  const parts = htmlAccountParts(options);
  const columns = profileColumns(options.operatorColumns ?? []);

  async function updateOwnProfile(request: Request, context: SignedInContext): Promise<Response> {
    const form = await readAccountForm(request, context, options);
    if (!form.ok) return form.response;
    const input: Record<string, string> = {};
    for (const column of columns) {
      const value = form.value.get(column.name);
      if (value !== null) input[column.name] = value;
    }
    const { user, locale } = context;
    const updated = await updateProfile(options.users, columns, user, input, parts.clock());
    if (updated.ok) {
      flashAccountMessage(context, "notice", "accounts.profile.updated");
    } else {
      for (const [field, messages] of Object.entries(updated.fields)) {
        for (const message of messages) {
          context.session.flash(
            "alert",
            fullMessage(accountFieldName(field, locale), message, locale),
          );
        }
      }
    }
    return seeOther("/account");
  }

  return withMiddleware(
    withMiddleware(
      [{ method: "POST", path: "/account/profile", handle: updateOwnProfile }],
      signedInPage(options.users),
    ),
    pageSafety(options),
  );
}
