import { html } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { checkboxInput, labelledInput } from "../html/form-fields.js";
import {
  accountErrorSummary,
  accountPage,
  accountText,
  errorAlert,
  pageLink,
  postForm,
} from "../html/form-page-kit.js";
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
    const text = accountText(locale);
    const field = (
      name: string,
      label: string,
      autocomplete: "current-password" | "new-password",
    ) =>
      labelledInput({
        name,
        label,
        type: "password",
        autocomplete,
        errors: errors[name] ?? [],
        locale,
      });
    const inputs = [
      ...(hasPassword
        ? [field("current_password", text("accounts.field.current_password"), "current-password")]
        : []),
      field("password", text("accounts.password.new"), "new-password"),
      field("password_confirmation", text("accounts.password.confirmation"), "new-password"),
      checkboxInput("sign_out_others", text("accounts.password.sign_out_others"), signOutOthers),
    ];
    return accountPage(
      layout,
      context,
      text(hasPassword ? "accounts.password.title" : "accounts.password.set_title"),
      html`${errorAlert(error)}
${accountErrorSummary(errors, locale)}
${postForm("/account/password", inputs, text("accounts.password.submit"))}
${pageLink("/account", text("accounts.sessions.back_to_account"))}`,
    );
  };
}
