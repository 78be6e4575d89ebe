import { type ErrorEnvelope, errorEnvelope, type Locale, type MessageParams } from "@tessera/core";
import { jsonError } from "@tessera/http";
import { type AccountMessageId, accountMessages } from "./account-messages.js";

/**
 * One refusal of an account route: its `error.code`, its status and the id of its message,
 * kept together so a route never pairs them by hand. A code may stand in two entries of one
 * feature with different statuses (`invalid_credentials` is a 401 and a 403), never in two
 * features.
 */
export interface AccountErrorEntry<Code extends string = string> {
  readonly code: Code;
  readonly status: number;
  readonly message: AccountMessageId;
}

/** The characters of a text, as a union. */
type CharacterOf<Text extends string> = Text extends `${infer First}${infer Rest}`
  ? First | CharacterOf<Rest>
  : never;
type LowerLetter = CharacterOf<"abcdefghijklmnopqrstuvwxyz">;
type Digit = CharacterOf<"0123456789">;

/** Whether the rest of a code after its first letter is snake_case: no `__`, no trailing `_`. */
type IsSnakeCaseTail<Rest extends string> = Rest extends ""
  ? true
  : Rest extends `_${infer After}`
    ? After extends `${LowerLetter | Digit}${string}`
      ? IsSnakeCaseTail<After>
      : false
    : Rest extends `${LowerLetter | Digit}${infer After}`
      ? IsSnakeCaseTail<After>
      : false;

/** The code itself when it is snake_case (the same rule as field names), else a type naming why. */
type SnakeCaseCode<Code extends string> = Code extends `${LowerLetter}${infer Rest}`
  ? IsSnakeCaseTail<Rest> extends true
    ? Code
    : `${Code} is not snake_case`
  : `${Code} is not snake_case`;

/** An entry whose code must be snake_case: the one `Entry` gives, checked. */
type SnakeCaseEntry<Entry> = AccountErrorEntry<
  Entry extends { readonly code: infer Code extends string } ? SnakeCaseCode<Code> : string
>;

type AccountErrorTable = Readonly<Record<string, AccountErrorEntry>>;

/** The codes of an error table, as a union. */
export type AccountErrorCodeOf<Table extends AccountErrorTable> = Table[keyof Table]["code"];

/**
 * A feature's error table, checked at compile time: each entry a code, a status and an
 * `AccountMessageId`, each code a literal in snake_case (`no_passkey`; `NoPasskey` does not
 * compile). Frozen with its entries, so no code can change another feature's answer.
 */
export function defineAccountErrors<
  const Table extends { readonly [Name in keyof Table]: SnakeCaseEntry<Table[Name]> },
>(table: Table): Table {
  for (const entry of Object.values(table)) Object.freeze(entry);
  return Object.freeze(table);
}

/**
 * The JSON error envelope of `entry` as data, its message in `locale` (with `params` filled
 * in): for an answer that carries more than the envelope, as `mfa_required` does.
 */
export function accountErrorEnvelope(
  entry: AccountErrorEntry,
  locale: Locale | undefined,
  params?: MessageParams,
): ErrorEnvelope {
  return errorEnvelope(entry.status, accountMessages.text(locale, entry.message, params), {
    code: entry.code,
  });
}

/**
 * The answer refusing a request with `entry`: its status, and the JSON error envelope with its
 * code and its message in `locale` (with `params` filled in). Sent through `jsonError`, so it
 * carries the language headers of `locale` like every other JSON error.
 */
export function accountErrorAnswer(
  entry: AccountErrorEntry,
  locale: Locale | undefined,
  params?: MessageParams,
): Response {
  const message = accountMessages.text(locale, entry.message, params);
  return jsonError(entry.status, message, { code: entry.code, locale });
}
