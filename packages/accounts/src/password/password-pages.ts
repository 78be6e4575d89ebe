import { html, unsafeHtml } from "@tessera/core";
import { renderErrorSummary } from "@tessera/fields";
import type { Layout, PageContext } from "@tessera/http";
import { accountMessages } from "../account-messages.js";
import { renderForm, renderInput } from "../html/form-fields.js";
import type { FieldErrors } from "../messages.js";

/** What the password page shows. */
export interface PasswordPageView {
  readonly context: PageContext;
  /** Ask for the current password: false for a user who has none yet (and sets one here). */
  readonly hasPassword: boolean;
  /** Messages by field: `current_password`, `password`, `password_confirmation`. */
  readonly errors: FieldErrors;
  /** A refusal of the whole form (a sign-in too old to change credentials). */
  readonly error?: string | undefined;
  /** Whether "sign out my other sessions" is ticked (it is by default). */
  readonly signOutOthers: boolean;
}

/** The page of `/account/password`: `defaultPasswordPage(layout)` gives ours. */
export type PasswordPage = (view: PasswordPageView) => string;

/**
 * Our `/account/password` page: the current password (when the user has one), the new one
 * twice, and "Sign out my other sessions", ticked unless the user unticked it.
 */
export function defaultPasswordPage(layout: Layout): PasswordPage {
  return ({ context, hasPassword, errors, error, signOutOthers }) => {
    const { locale } = context;
    const text = (id: Parameters<typeof accountMessages.text>[1]) =>
      accountMessages.text(locale, id);
    const title = text(hasPassword ? "accounts.password.title" : "accounts.password.set_title");
    const field = (
      name: string,
      label: string,
      autocomplete: "current-password" | "new-password",
    ) =>
      renderInput({
        name,
        label,
        type: "password",
        autocomplete,
        errors: errors[name] ?? [],
        locale,
      });
    const inputs = [
      hasPassword
        ? field("current_password", text("accounts.field.current_password"), "current-password")
        : "",
      field("password", text("accounts.password.new"), "new-password"),
      field("password_confirmation", text("accounts.password.confirmation"), "new-password"),
      String(
        html`<div class="field checkbox"><input id="field-sign_out_others" name="sign_out_others" type="checkbox" value="1"${signOutOthers ? " checked" : ""}><label for="field-sign_out_others">${text("accounts.password.sign_out_others")}</label></div>`,
      ),
    ].filter((input) => input !== "");
    // renderErrorSummary, renderForm and renderInput escape what they are given.
    const summary = unsafeHtml(renderErrorSummary(errors, locale));
    const form = unsafeHtml(
      renderForm("/account/password", inputs.join("\n"), text("accounts.password.submit")),
    );
    return layout({
      title,
      context,
      mainHtml: String(html`<h1>${title}</h1>
${error ? html`<div class="error-summary" role="alert"><p>${error}</p></div>` : ""}
${summary}
${form}
<p><a href="/account">${text("accounts.sessions.back_to_account")}</a></p>`),
    });
  };
}
