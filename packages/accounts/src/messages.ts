/** Validation messages of the account forms, exactly as the spec writes them. */
export const CANT_BE_BLANK = "can't be blank";
/** Email format message. */
export const IS_INVALID = "is invalid";
/** Duplicate email message. */
export const HAS_ALREADY_BEEN_TAKEN = "has already been taken";

/** The message for text over `maximum` characters, in the spec's style. */
export function tooLongMessage(maximum: number): string {
  return `is too long (maximum is ${maximum} characters)`;
}

/** Field name → messages, all failing fields at once: the `fields` of a 422. */
export type FieldErrors = Record<string, string[]>;

/** Adds one message to a field of a {@link FieldErrors}. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  const messages = errors[field] ?? [];
  messages.push(message);
  errors[field] = messages;
}
