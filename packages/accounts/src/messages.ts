import type { FieldMessages } from "@tessera/fields/messages";

/** Field name → messages, all failing fields at once: the `fields` of a 422. */
export type FieldErrors = FieldMessages;

/** Adds one message to a field of a {@link FieldErrors}. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  const messages = errors[field] ?? [];
  messages.push(message);
  errors[field] = messages;
}
