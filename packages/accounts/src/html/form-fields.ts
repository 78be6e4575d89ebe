import type { Locale, MessageParams } from "@tessera/core";
import { fullMessage } from "@tessera/fields/messages";
import { escapeHtml } from "@tessera/http";
import { type AccountMessageId, accountMessages } from "../account-messages.js";

/** One labelled input of an account form. */
export interface InputField {
  readonly name: string;
  readonly label: string;
  readonly type: "email" | "password" | "text";
  readonly autocomplete: string;
  readonly value?: string;
  readonly required?: boolean;
  readonly errors?: readonly string[];
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
          .map((message) => {
            const text = fullMessage(
              accountFieldName(field.name, field.locale),
              message,
              field.locale,
            );
            return `<li>${escapeHtml(text)}</li>`;
          })
          .join("")}</ul>`
      : "";
  return `<div class="field">
<label for="${id}">${escapeHtml(field.label)}</label>
<input id="${id}" name="${escapeHtml(field.name)}" type="${field.type}" autocomplete="${escapeHtml(field.autocomplete)}"${field.required === false ? "" : " required"}${value}${invalid}>
${messages}</div>`;
}

/**
 * The text of an account page in `locale`: each message of {@link accountMessages}, escaped for
 * HTML (a value put in, such as an email address, is escaped with it).
 */
export function escapedAccountText(locale: Locale | undefined) {
  return (id: AccountMessageId, params?: MessageParams): string =>
    escapeHtml(accountMessages.text(locale, id, params));
}

/** A form that posts to `action`, with its fields and one submit button. */
export function renderForm(action: string, inner: string, submitLabel: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>
${inner}
<button type="submit">${escapeHtml(submitLabel)}</button>
</form>`;
}
