import { fullMessage } from "@tessera/fields/messages";
import { escapeHtml } from "@tessera/http";
import type { FieldErrors } from "../messages.js";

/** One labelled input of an account form. */
export interface InputField {
  readonly name: string;
  readonly label: string;
  readonly type: "email" | "password" | "text";
  readonly autocomplete: string;
  readonly value?: string;
  readonly required?: boolean;
  readonly errors?: readonly string[];
}

/** A label and input, with its messages tied to it by `aria-describedby`. */
export function renderInput(field: InputField): string {
  const id = `field-${field.name}`;
  const errors = field.errors ?? [];
  const errorId = `${id}-errors`;
  const value =
    field.value !== undefined && field.type !== "password"
      ? ` value="${escapeHtml(field.value)}"`
      : "";
  const invalid = errors.length > 0 ? ` aria-invalid="true" aria-describedby="${errorId}"` : "";
  const messages =
    errors.length > 0
      ? `<ul class="field-errors" id="${errorId}">${errors
          .map((message) => `<li>${escapeHtml(fullMessage(field.name, message))}</li>`)
          .join("")}</ul>`
      : "";
  return `<div class="field">
<label for="${id}">${escapeHtml(field.label)}</label>
<input id="${id}" name="${escapeHtml(field.name)}" type="${field.type}" autocomplete="${escapeHtml(field.autocomplete)}"${field.required === false ? "" : " required"}${value}${invalid}>
${messages}</div>`;
}

/** The summary at the top of a refused form: every message, each linking to its field. */
export function renderErrorSummary(errors: FieldErrors): string {
  const entries = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, message })),
  );
  if (entries.length === 0) return "";
  const heading =
    entries.length === 1
      ? "1 error stopped this form"
      : `${entries.length} errors stopped this form`;
  return `<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${heading}</h2>
<ul>${entries
    .map(
      ({ field, message }) =>
        `<li><a href="#field-${escapeHtml(field)}">${escapeHtml(fullMessage(field, message))}</a></li>`,
    )
    .join("")}</ul>
</div>`;
}

/** A form that posts to `action`, with its fields and one submit button. */
export function renderForm(action: string, inner: string, submitLabel: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>
${inner}
<button type="submit">${escapeHtml(submitLabel)}</button>
</form>`;
}
