import { fullMessage } from "@tessera/fields/messages";
import { type Route, seeOther, withMiddleware } from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { accountFlow } from "../html/account-flow.js";
import { accountFieldName } from "../html/form-fields.js";
import type { HtmlAccountRoutesOptions, SignedInContext } from "../html/html-routes-options.js";
import { profileColumns, updateProfile } from "./update-profile.js";

/**
 * `POST /account/profile` (signed in): the profile form of `/account`, the operator columns
 * sign-up accepts. 303 to `/account` with `Your profile has been updated.`, or with an alert
 * naming each failing field's message; nothing is written then.
 */
export function htmlProfileRoutes(options: HtmlAccountRoutesOptions): Route<MaybeSessionContext>[] {
  const flow = accountFlow(options);
  const columns = profileColumns(options.operatorColumns ?? []);

  async function updateOwnProfile(request: Request, context: SignedInContext): Promise<Response> {
    const form = await flow.readForm(request, context);
    if (!form.ok) return form.response;
    const input: Record<string, string> = {};
    for (const column of columns) {
      const value = form.value.get(column.name);
      if (value !== null) input[column.name] = value;
    }
    const { user, locale } = context;
    const updated = await updateProfile(options.users, columns, user, input, flow.clock());
    if (updated.ok) {
      flow.flash(context, "notice", "accounts.profile.updated");
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
      flow.signedIn(),
    ),
    pageSafety(options),
  );
}
