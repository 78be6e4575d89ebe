/** The hyphenated 8-4-4-4-12 hex form, any letter case (the JSON Schemas reuse it). */
export const UUID_TEXT =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** True for the hyphenated 8-4-4-4-12 hex form in any letter case; version bits are not checked. */
export function isUuidText(text: string): boolean {
  return UUID_TEXT.test(text);
}
