import { html } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { labelledInput } from "../html/form-fields.js";
import {
  accountErrorSummary,
  accountPage,
  accountText,
  errorAlert,
  pageLink,
  postForm,
} from "../html/form-page-kit.js";
import type { FieldErrors } from "../messages.js";
import { EMAIL_CHANGE_PATH } from "./email-change-mails.js";

/** What the page of `/account/email` shows. */
export interface EmailChangeFormView {
  readonly context: PageContext;
  /** The account's address now, named above the form. */
  readonly currentEmail: string;
  /** The new address as it was typed: kept on a refused form. */
  readonly email: string;
  /** Ask for the current password: false for a user who has none. */
  readonly hasPassword: boolean;
  /** Messages by field: `email`, `current_password`. */
  readonly errors: FieldErrors;
  /** A refusal of the whole form (a sign-in too old to change the address). */
  readonly error?: string | undefined;
}

/** What the page of a change's link shows: the new address and a Confirm button. */
export interface EmailChangeConfirmView {
  readonly context: PageContext;
  /** The token of the path, which the button posts back. */
  readonly token: string;
  readonly newEmail: string;
}

/** The pages of an email change: `defaultEmailChangePages(layout)` gives ours. */
export interface EmailChangePages {
  /** `/account/email`: the new address, and the current password when the user has one. */
  emailChangeForm(view: EmailChangeFormView): string;
  /** `/email_changes/<token>`: the new address and a button posting the token back. */
  emailChangeConfirm(view: EmailChangeConfirmView): string;
}

/**
 * Our email change pages: the form of `/account/email` (the new address, and the current
 * password when the user has one) and the Confirm button of `/email_changes/<token>`.
 */
export function defaultEmailChangePages(layout: Layout): EmailChangePages {
  return {
    emailChangeForm: ({ context, currentEmail, email, hasPassword, errors, error }) => {
      const { locale } = context;
      const text = accountText(locale);
      const inputs = [
        labelledInput({
          name: "email",
          label: text("accounts.email_change.new_email"),
          type: "email",
          autocomplete: "email",
          value: email,
          errors: errors.email ?? [],
          locale,
        }),
        ...(hasPassword
          ? [
              labelledInput({
                name: "current_password",
                label: text("accounts.field.current_password"),
                type: "password",
                autocomplete: "current-password",
                errors: errors.current_password ?? [],
                locale,
              }),
            ]
          : []),
      ];
      return accountPage(
        layout,
        context,
        text("accounts.email_change.title"),
        html`<dl class="facts">
<dt>${text("accounts.field.email")}</dt><dd>${currentEmail}</dd>
</dl>
${errorAlert(error)}
${accountErrorSummary(errors, locale)}
${postForm("/account/email", inputs, text("accounts.email_change.submit"))}
${pageLink("/account", text("accounts.sessions.back_to_account"))}`,
      );
    },

    emailChangeConfirm: ({ context, token, newEmail }) => {
      const text = accountText(context.locale);
      return accountPage(
        layout,
        context,
        text("accounts.email_change.confirm_title"),
        html`<p>${text("accounts.email_change.confirm_intro", { email: newEmail })}</p>
${postForm(`${EMAIL_CHANGE_PATH}${encodeURIComponent(token)}`, [], text("accounts.email_change.confirm_submit"))}`,
      );
    },
  };
}
