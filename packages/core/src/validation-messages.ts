// The field messages that packages outside @tessera/fields also write (an API key's `name`),
// so they live in the one package every other depends on. @tessera/fields re-exports them.

/** A required value that is missing, empty or whitespace only. */
export const BLANK = "can't be blank";
/** Generic refusal (for example an email of the wrong shape). */
export const INVALID = "is invalid";
/** `is too long (maximum is 100 characters)`: the shape of every length message. */
export function tooLongMessage(
  maximum: number,
  unit: "characters" | "bytes" = "characters",
): string {
  return `is too long (maximum is ${maximum} ${unit})`;
}
