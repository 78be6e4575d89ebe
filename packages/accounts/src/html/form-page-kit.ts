import { html, joinHtml, type Locale, type MessageParams, type SafeHtml } from "@tessera/core";
import { errorSummaryHtml } from "@tessera/fields";
import type { Layout, PageContext } from "@tessera/http";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import type { FieldErrors } from "../messages.js";
import { accountFieldName } from "./form-fields.js";

/**
 * The text of an account page in `locale`: each message of {@link accountMessages} as plain
 * text, for `html` to escape where it goes (a value put in, such as an email address, with it).
 */
export function accountText(locale: Locale | undefined) {
  return (id: AccountMessageId, params?: MessageParams): string =>
    accountMessages.text(locale, id, params);
}

/**
 * An account page in the app's layout: the title as its `<h1>`, then `main`. The one place a
 * page's markup becomes the string the layout takes.
 */
export function accountPage(
  layout: Layout,
  context: PageContext,
  title: string,
  main: SafeHtml,
): string {
  return layout({ title, context, mainHtml: html`<h1>${title}</h1>\n${main}`.toString() });
}

/** The alert of a refusal of a whole form (not of one field); nothing without a message. */
export function errorAlert(message: string | undefined): SafeHtml {
  return message ? html`<div class="error-summary" role="alert"><p>${message}</p></div>` : html``;
}

/**
 * A form that posts to `action`, its inputs one a line, and one submit button. `novalidate`, so
 * the server's messages (in the page's language, with the error summary) are the ones shown.
 */
export function postForm(
  action: string,
  inputs: readonly SafeHtml[],
  submitLabel: string,
): SafeHtml {
  return html`<form method="post" action="${action}" novalidate>
${joinHtml(inputs, "\n")}
<button type="submit">${submitLabel}</button>
</form>`;
}

/** A link alone in its paragraph: the way back, or on to another page. */
export function pageLink(href: string, label: string): SafeHtml {
  return html`<p><a href="${href}">${label}</a></p>`;
}

/**
 * The summary at the top of a refused account form, each sentence starting with the field's
 * name in the page's language (`Mot de passe actuel est incorrect`), as the field's own
 * messages do.
 */
export function accountErrorSummary(errors: FieldErrors, locale: Locale | undefined): SafeHtml {
  return errorSummaryHtml(errors, locale, (field) => accountFieldName(field, locale));
}
