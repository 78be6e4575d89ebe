import { html, unsafeHtml } from "@tessera/core";
import { renderErrorSummary } from "@tessera/fields";
import type { Layout, PageContext } from "@tessera/http";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import { renderForm, renderInput } from "../html/form-fields.js";
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
      const text = (id: AccountMessageId) => accountMessages.text(locale, id);
      const title = text("accounts.email_change.title");
      const inputs = [
        renderInput({
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
              renderInput({
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
      // renderErrorSummary, renderForm and renderInput escape what they are given.
      const summary = unsafeHtml(renderErrorSummary(errors, locale));
      const form = unsafeHtml(
        renderForm("/account/email", inputs.join("\n"), text("accounts.email_change.submit")),
      );
      return layout({
        title,
        context,
        mainHtml: String(html`<h1>${title}</h1>
<dl class="facts">
<dt>${text("accounts.field.email")}</dt><dd>${currentEmail}</dd>
</dl>
${error ? html`<div class="error-summary" role="alert"><p>${error}</p></div>` : ""}
${summary}
${form}
<p><a href="/account">${text("accounts.sessions.back_to_account")}</a></p>`),
      });
    },

    emailChangeConfirm: ({ context, token, newEmail }) => {
      const { locale } = context;
      const title = accountMessages.text(locale, "accounts.email_change.confirm_title");
      const intro = accountMessages.text(locale, "accounts.email_change.confirm_intro", {
        email: newEmail,
      });
      const form = unsafeHtml(
        renderForm(
          `${EMAIL_CHANGE_PATH}${encodeURIComponent(token)}`,
          "",
          accountMessages.text(locale, "accounts.email_change.confirm_submit"),
        ),
      );
      return layout({
        title,
        context,
        mainHtml: String(html`<h1>${title}</h1>
<p>${intro}</p>
${form}`),
      });
    },
  };
}
