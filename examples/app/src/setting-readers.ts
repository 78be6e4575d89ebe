import { isValidEmail, normalizeEmail } from "@tessera/accounts";

/**
 * Readers of one environment variable each, for config.ts. Written here rather than taken from
 * a schema library: reading some thirty settings through zod cost the app's start-up about
 * 0.2 s and 14 MiB, more than any other library it loads at start.
 *
 * A reader gets the setting's value as given, or undefined when it is unset or only blanks, and
 * gives what the app uses or throws {@link InvalidSetting}.
 */
export type SettingReader<T> = (value: string | undefined) => T;

/** Why a setting's value cannot be used: the message ends `NAME is not valid: <message>`. */
export class InvalidSetting extends Error {
  override readonly name = "InvalidSetting";
}

/**
 * A comma-separated list of email addresses, each normalized (`normalizeEmail`), without
 * repeats; empty when unset. An entry that is no address is refused.
 */
export const emailList: SettingReader<readonly string[]> = (value) => {
  if (value === undefined) return [];
  const emails = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const email of emails) {
    if (!isValidEmail(normalizeEmail(email))) {
      throw new InvalidSetting(`${JSON.stringify(email)} is not an email address`);
    }
  }
  return [...new Set(emails.map(normalizeEmail))];
};

/** The value as given, or undefined. */
export const optionalText: SettingReader<string | undefined> = (value) => value;

/** The value as given, or `fallback` when unset. */
export function textOr(fallback: string): SettingReader<string> {
  return (value) => value ?? fallback;
}

/**
 * A whole number (decimal digits, no sign, blanks around allowed) from `min` to `max`, or
 * `fallback` when unset.
 */
export function wholeNumber(min: number, max: number, fallback: number): SettingReader<number> {
  return (value) => {
    if (value === undefined) return fallback;
    const trimmed = value.trim();
    const number = Number(trimmed);
    if (!/^\d{1,10}$/.test(trimmed) || number < min || number > max) {
      throw new InvalidSetting(`expected a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

/** One of `choices`, exactly, or undefined. */
export function oneOf<T extends string>(choices: readonly T[]): SettingReader<T | undefined> {
  return (value) => {
    if (value === undefined || (choices as readonly string[]).includes(value)) {
      return value as T | undefined;
    }
    throw new InvalidSetting(`expected one of ${choices.join(", ")}`);
  };
}

/**
 * A URL the WHATWG parser takes, with no blanks in it, whose scheme is one of `schemes`
 * (`["http", "https"]`), or undefined. `message` replaces the default reason; the reason never
 * repeats the value, which may hold a password.
 */
export function url(options: {
  readonly schemes: readonly string[];
  readonly message?: string;
}): SettingReader<string | undefined> {
  const { schemes } = options;
  const reason =
    options.message ??
    `expected a URL starting ${schemes.map((scheme) => `${scheme}://`).join(" or ")}`;
  return (value) => {
    if (value === undefined) return undefined;
    const parsed = !/\s/.test(value) && URL.canParse(value) ? new URL(value) : undefined;
    if (!parsed || !schemes.includes(parsed.protocol.slice(0, -1))) {
      throw new InvalidSetting(reason);
    }
    return value;
  };
}

/** A value `pattern` matches whole, or undefined; `message` says what was expected. */
export function matching(pattern: RegExp, message: string): SettingReader<string | undefined> {
  return (value) => {
    if (value === undefined || pattern.test(value)) return value;
    throw new InvalidSetting(message);
  };
}

/** What each reader of `readers` gives, by setting name. */
export type SettingsRead<R extends Record<string, SettingReader<unknown>>> = {
  readonly [K in keyof R]: ReturnType<R[K]>;
};

/**
 * Reads each setting of `readers` from `environment` (a blank value counts as unset).
 * @throws {InvalidSetting} of the first setting refused, its message prefixed with the name.
 */
export function readSettings<R extends Record<string, SettingReader<unknown>>>(
  environment: Record<string, string | undefined>,
  readers: R,
): SettingsRead<R> {
  const settings: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(readers)) {
    const given = environment[name];
    try {
      settings[name] = read(given === undefined || given.trim() === "" ? undefined : given);
    } catch (error) {
      if (!(error instanceof InvalidSetting)) throw error;
      throw new InvalidSetting(`${name} is not valid: ${error.message}`);
    }
  }
  return settings as SettingsRead<R>;
}
