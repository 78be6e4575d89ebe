import { fullMessage } from "@tessera/fields/messages";
import { escapeHtml } from "@tessera/http";

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

/** A form that posts to `action`, with its fields and one submit button. */
export function renderForm(action: string, inner: string, submitLabel: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>
${inner}
<button type="submit">${escapeHtml(submitLabel)}</button>
</form>`;
}
