import { html, type Locale, type SafeHtml } from "@tessera/core";
import { fullMessage } from "@tessera/fields/messages";
import { type AccountMessageId, accountMessages } from "../account-messages.js";

/** One labelled input of an account form. */
export interface InputField {
  readonly name: string;
  readonly label: string;
  readonly type: "email" | "password" | "text";
  readonly autocomplete: string;
  readonly value?: string | undefined;
  readonly required?: boolean | undefined;
  readonly errors?: readonly string[] | undefined;
  /** The language of the page: its messages start with the field's name in it. */
  readonly locale?: Locale | undefined;
}

/**
 * The name a field's messages start with: the catalog's (`accounts.field.password`), whose
 * English is the humanized input name, so `fullMessage` reads `Password is too long …` in
 * English and starts with the translated name elsewhere.
 */
export function accountFieldName(name: string, locale: Locale | undefined): string {
  const id = `accounts.field.${name}`;
  return Object.hasOwn(accountMessages.english, id)
    ? accountMessages.text(locale, id as AccountMessageId)
    : name;
}

/**
 * A label and input, with its messages tied to it by `aria-describedby`; its id is
 * `field-<name>`, which the error summary links to. A password's value is never written back.
 */
export function labelledInput(field: InputField): SafeHtml {
  const id = `field-${field.name}`;
  const errors = field.errors ?? [];
  const errorId = `${id}-errors`;
  const value =
    field.value !== undefined && field.type !== "password" && html` value="${field.value}"`;
  const invalid = errors.length > 0 && html` aria-invalid="true" aria-describedby="${errorId}"`;
  const messages =
    errors.length > 0 &&
    html`<ul class="field-errors" id="${errorId}">${errors.map(
      (message) =>
        html`<li>${fullMessage(accountFieldName(field.name, field.locale), message, field.locale)}</li>`,
    )}</ul>`;
  return html`<div class="field">
<label for="${id}">${field.label}</label>
<input id="${id}" name="${field.name}" type="${field.type}" autocomplete="${field.autocomplete}"${field.required !== false && html` required`}${value}${invalid}>
${messages}</div>`;
}

/** A checkbox sending `1` under `name`, its label after it; ticked when `checked`. */
export function checkboxInput(name: string, label: string, checked: boolean): SafeHtml {
  const id = `field-${name}`;
  return html`<div class="field checkbox"><input id="${id}" name="${name}" type="checkbox" value="1"${checked && html` checked`}><label for="${id}">${label}</label></div>`;
}
