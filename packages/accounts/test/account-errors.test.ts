// Type tests too: `npx tsc -p tsconfig.json --noEmit` checks every `expectTypeOf` and
// `@ts-expect-error` here (the tsconfig covers the tests); vitest runs the run-time halves.

import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Locale } from "@tessera/core";
import { SNAKE_CASE } from "@tessera/fields";
import { type HttpErrorCode, jsonError } from "@tessera/http";
import { describe, expect, expectTypeOf, it } from "vitest";
import { accountErrorTables } from "../src/account-error-codes.js";
import { type AccountErrorEntry, defineAccountErrors } from "../src/account-errors.js";
import { adminErrors } from "../src/admin/admin-errors.js";
import { captchaErrors } from "../src/captcha/captcha-errors.js";
import {
  type AccountErrorCode,
  accountErrorAnswer,
  accountMessages,
  INVALID_CREDENTIALS,
  MFA_REQUIRED,
  PASSKEY_INVALID,
  passkeyErrors,
  passwordErrors,
  secondFactorErrors,
  signInErrors,
} from "../src/index.js";

const SOURCE = fileURLToPath(new URL("../src/", import.meta.url));

/** Every entry of every table, with the feature it is listed under. */
const entries = Object.entries(accountErrorTables).flatMap(([feature, table]) =>
  Object.entries(table as Readonly<Record<string, AccountErrorEntry>>).map(([name, entry]) => ({
    feature,
    name,
    ...entry,
  })),
);

describe("the error tables", () => {
  it("lists the table of every feature's <feature>-errors.ts", async () => {
    const files = readdirSync(SOURCE, { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith("-errors.ts") && path !== "account-errors.ts")
      .sort();
    expect(files).toEqual([
      "admin/admin-errors.ts",
      "captcha/captcha-errors.ts",
      "passkey/passkey-errors.ts",
      "password/password-errors.ts",
      "second-factor/second-factor-errors.ts",
      "sign-in/sign-in-errors.ts",
    ]);
    const listed = new Set<unknown>(Object.values(accountErrorTables));
    for (const file of files) {
      const module: Record<string, unknown> = await import(pathToFileURL(SOURCE + file).href);
      const tables = Object.values(module);
      expect(tables.length, file).toBeGreaterThan(0);
      for (const table of tables) expect(listed.has(table), file).toBe(true);
    }
  });

  it("gives each code to one feature, in snake_case", () => {
    const featuresOfCode = new Map<string, Set<string>>();
    for (const { code, feature } of entries) {
      expect(code, `${feature}: ${code}`).toMatch(SNAKE_CASE);
      featuresOfCode.set(code, (featuresOfCode.get(code) ?? new Set()).add(feature));
    }
    const shared = [...featuresOfCode].filter(([, features]) => features.size > 1);
    expect(shared).toEqual([]);
  });

  it("answers one code with each status at most once, with a message of the catalog", () => {
    const pairs = entries.map(({ code, status }) => `${code} ${status}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const { message, status } of entries) {
      expect(Object.hasOwn(accountMessages.english, message), message).toBe(true);
      expect(status >= 400 && status < 500, message).toBe(true);
    }
  });

  it("keeps every code, status and message that answered before, and gives each 409 its own code", () => {
    const answers = Object.fromEntries(
      entries.map(({ name, code, status, message }) => [
        name,
        [status, code, accountMessages.english[message]],
      ]),
    );
    expect(answers).toEqual({
      mfaRequired: [403, "mfa_required", "A second factor is required to sign in."],
      reauthenticationRequired: [
        403,
        "reauthentication_required",
        "This needs a recent sign-in: confirm it is you, then try again within 10 minutes.",
      ],
      apiKeyNotAllowed: [
        403,
        "api_key_not_allowed",
        "An API key cannot manage credentials; sign in to do this.",
      ],
      impersonationNotAllowed: [
        403,
        "impersonation_not_allowed",
        "Not while an administrator acts as this user: only they can change their credentials.",
      ],
      accountBanned: [403, "account_banned", "This account is banned."],
      notImpersonable: [
        409,
        "not_impersonable",
        "This user cannot be impersonated: administrators and banned users never are.",
      ],
      adminNotBannable: [
        409,
        "admin_not_bannable",
        "An administrator cannot be banned: revoke the role first.",
      ],
      accountThrottled: [
        429,
        "account_throttled",
        "Too many failed attempts to sign in to this account; wait a while, or sign in another way.",
      ],
      invalidCredentials: [401, "invalid_credentials", "Unauthorized"],
      passwordIncorrect: [403, "invalid_credentials", "The password is incorrect."],
      passkeyInvalid: [
        400,
        "passkey_invalid",
        "The passkey could not be verified. Try adding it again.",
      ],
      noPasskey: [409, "no_passkey", "This account has no passkey."],
      totpAlreadyEnabled: [
        409,
        "totp_already_enabled",
        "Two-factor codes are already on; turn them off first.",
      ],
      totpNotPending: [409, "totp_not_pending", "No two-factor setup is waiting for a code."],
      totpNotEnabled: [409, "totp_not_enabled", "Two-factor codes are not on."],
      captchaFailed: [400, "captcha_failed", "The captcha was not solved; try again."],
    });
  });

  it("derives AccountErrorCode and the exported constants from the tables", () => {
    expectTypeOf<AccountErrorCode>().toEqualTypeOf<
      | HttpErrorCode
      | "mfa_required"
      | "reauthentication_required"
      | "api_key_not_allowed"
      | "impersonation_not_allowed"
      | "account_banned"
      | "account_throttled"
      | "admin_not_bannable"
      | "not_impersonable"
      | "invalid_credentials"
      | "passkey_invalid"
      | "no_passkey"
      | "totp_already_enabled"
      | "totp_not_pending"
      | "totp_not_enabled"
      | "captcha_failed"
    >();
    expect([INVALID_CREDENTIALS, MFA_REQUIRED, PASSKEY_INVALID]).toEqual([
      passwordErrors.invalidCredentials.code,
      signInErrors.mfaRequired.code,
      passkeyErrors.passkeyInvalid.code,
    ]);
    expect(Object.values(accountErrorTables)).toEqual([
      signInErrors,
      passwordErrors,
      passkeyErrors,
      secondFactorErrors,
      captchaErrors,
      adminErrors,
    ]);
  });

  it("freezes a table, and refuses a code that is not snake_case before it runs", () => {
    const table = defineAccountErrors({
      fine: { code: "totp_2_pending", status: 409, message: "accounts.totp_not_pending" },
    });
    expect([Object.isFrozen(table), Object.isFrozen(table.fine)]).toEqual([true, true]);
    expect(table.fine.code).toBe("totp_2_pending");
    defineAccountErrors({
      // @ts-expect-error: `NoPasskey is not snake_case`
      bad: { code: "NoPasskey", status: 409, message: "accounts.no_passkey" },
    });
    defineAccountErrors({
      // @ts-expect-error: `no__passkey is not snake_case`
      bad: { code: "no__passkey", status: 409, message: "accounts.no_passkey" },
    });
    defineAccountErrors({
      // @ts-expect-error: `no_passkey_ is not snake_case`
      bad: { code: "no_passkey_", status: 409, message: "accounts.no_passkey" },
    });
    defineAccountErrors({
      // @ts-expect-error: `1_passkey is not snake_case`
      bad: { code: "1_passkey", status: 409, message: "accounts.no_passkey" },
    });
    defineAccountErrors({
      // @ts-expect-error: a message that is no AccountMessageId
      bad: { code: "no_passkey", status: 409, message: "accounts.nope" },
    });
    defineAccountErrors({
      // @ts-expect-error: an entry without its status
      bad: { code: "no_passkey", message: "accounts.no_passkey" },
    });
  });
});

describe("accountErrorAnswer", () => {
  const PIRATE: Locale = {
    tag: "x-pirate",
    catalog: { "accounts.no_passkey": "Ye have no passkey, matey." },
  };

  it("answers as jsonError does: status, headers and envelope, the message in the locale", async () => {
    const answer = accountErrorAnswer(passkeyErrors.noPasskey, PIRATE);
    const expected = jsonError(409, "Ye have no passkey, matey.", {
      code: "no_passkey",
      locale: PIRATE,
    });
    expect(answer.status).toBe(409);
    expect([...answer.headers]).toEqual([...expected.headers]);
    expect(answer.headers.get("content-language")).toBe("x-pirate");
    expect(await answer.json()).toEqual({
      error: { code: "no_passkey", message: "Ye have no passkey, matey.", status: 409 },
    });
  });

  it("fills the message's parameters", async () => {
    const entry = defineAccountErrors({
      ended: { code: "sessions_ended", status: 409, message: "accounts.other_sessions_ended" },
    }).ended;
    const answer = accountErrorAnswer(entry, undefined, { count: 3 });
    expect(await answer.json()).toEqual({
      error: { code: "sessions_ended", message: "Signed out of 3 other session(s).", status: 409 },
    });
  });
});
