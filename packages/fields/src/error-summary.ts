import { errorSummaryHeading, html, type Locale, type SafeHtml } from "@tessera/core";
import { type FieldMessages, fullMessage } from "./messages.js";

/**
 * The summary at the top of a refused HTML form, as a piece of `html` to put in a page: every
 * message as a full sentence, each linking to its input (`#field-<name>`), in an alert region
 * that screen readers announce; in `locale` (English without it). Empty when no field has a
 * message. `fieldName` gives the name a field's sentences start with (by default its key,
 * humanized): a translated label, for a page in another language.
 */
export function errorSummaryHtml(
  errors: FieldMessages,
  locale?: Locale,
  fieldName: (field: string) => string = (field) => field,
): SafeHtml {
  const entries = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, message })),
  );
  if (entries.length === 0) return html``;
  const items = entries.map(
    ({ field, message }) =>
      html`<li><a href="#field-${field}">${fullMessage(fieldName(field), message, locale)}</a></li>`,
  );
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${errorSummaryHeading(entries.length, locale)}</h2>
<ul>${items}</ul>
</div>`;
}

/**
 * The summary at the top of a refused HTML form as text: {@link errorSummaryHtml}'s markup, for
 * pages written as strings; in `locale` (English without it).
 */
export function renderErrorSummary(errors: FieldMessages, locale?: Locale): string {
  return errorSummaryHtml(errors, locale).toString();
}
