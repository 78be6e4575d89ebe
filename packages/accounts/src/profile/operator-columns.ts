import { fail, ok, type Result } from "@tessera/core";
import { INVALID, tooLongMessage } from "@tessera/fields/messages";

/** A value an operator column holds. */
export type OperatorColumnValue = string | number | boolean | null;

/**
 * A column the operator adds to `users` (the extension point of `users`). Sign-up accepts it when
 * `acceptedAtSignup` is set, and then its user may change it (`PATCH /api/auth/me`, the profile
 * on `/account`) unless it is `secret`; it appears in the user's JSON unless `secret`.
 */
export interface OperatorColumn {
  /** Column and JSON key: snake_case. */
  readonly name: string;
  readonly secret?: boolean | undefined;
  readonly acceptedAtSignup?: boolean | undefined;
  /** Turns the raw input (undefined when absent) into the stored value, or a message. */
  parse(input: unknown): Result<OperatorColumnValue, string>;
}

/** Maximum length of the example `name` column. */
export const NAME_MAXIMUM_LENGTH = 100;

// C0 and C1 controls (line breaks and tabs too): a name is one line of visible text.
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * The example operator column: an optional `name`, trimmed, empty stored as null, at most
 * 100 characters, no control characters (`is invalid`), accepted by JSON sign-up and editable
 * by its user. Its migration adds `name TEXT` to `users`.
 */
export const nameColumn: OperatorColumn = {
  name: "name",
  acceptedAtSignup: true,
  parse(input) {
    if (input === undefined || input === null) return ok(null);
    if (typeof input !== "string") return fail("must be a string");
    const trimmed = input.trim();
    if (trimmed === "") return ok(null);
    if ([...trimmed].length > NAME_MAXIMUM_LENGTH) return fail(tooLongMessage(NAME_MAXIMUM_LENGTH));
    if (CONTROL_CHARACTER.test(trimmed)) return fail(INVALID);
    return ok(trimmed);
  },
};
