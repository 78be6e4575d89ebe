import { errorSummaryHeading, html, type Locale } from "@tessera/core";
import { type FieldMessages, fullMessage } from "./messages.js";

/**
 * The summary at the top of a refused HTML form: every message as a full sentence, each linking
 * to its input (`#field-<name>`), in an alert region that screen readers announce; in `locale`
 * (English without it).
 */
export function renderErrorSummary(errors: FieldMessages, locale?: Locale): string {
  const entries = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, message })),
  );
  if (entries.length === 0) return "";
  const items = entries.map(
    ({ field, message }) =>
      html`<li><a href="#field-${field}">${fullMessage(field, message, locale)}</a></li>`,
  );
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${errorSummaryHeading(entries.length, locale)}</h2>
<ul>${items}</ul>
</div>`.toString();
}
