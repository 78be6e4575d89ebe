/** Characters a terminal would act on or hide: controls, format marks (bidi), lone surrogates. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** Words longer than this many characters are shown by their start and end. */
const LONGEST_WORD = 120;

/**
 * `text` as the command prints a message: characters that would move the cursor, hide text or
 * reorder it shown as `\u{…}` escapes, and each word longer than 120 characters (a name of
 * 100,000) cut to its first 60 and last 20 with `…` between, so a message stays a message.
 */
export function printableText(text: string): string {
  return text
    .replace(UNPRINTABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
    .replace(/\S+/g, (word) => {
      const chars = [...word];
      return chars.length <= LONGEST_WORD
        ? word
        : `${chars.slice(0, 60).join("")}…${chars.slice(-20).join("")}`;
    });
}
