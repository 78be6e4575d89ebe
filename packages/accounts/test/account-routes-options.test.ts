import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { describe, expect, it } from "vitest";
import { type AccountRoutesOptions, accountRoutes } from "../src/index.js";

const SECRET = "a-secret-key-base-of-at-least-32-characters";
const SECRET_ADVICE =
  "pass a secret of 32 or more characters, e.g. process.env.SECRET_KEY_BASE (generate one with `openssl rand -hex 32`)";
const STORE_ADVICE = "e.g. spread `sqlAccountStores(database)` from @tessera/accounts/sql";

const database = openSqliteFile(":memory:");
await applyMigrations(database, accountMigrations);
const stores = sqlAccountStores(database);

/** The options with one changed as a mistaken program would: the types would refuse it. */
function withOption(name: string, value: unknown): AccountRoutesOptions {
  return { ...stores, secretKeyBase: SECRET, [name]: value } as unknown as AccountRoutesOptions;
}

/** The error `accountRoutes` throws for `options`, checked to be a TypeError. */
function errorOf(options: AccountRoutesOptions): TypeError {
  try {
    accountRoutes(options);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  throw new Error("accountRoutes accepted the options");
}

describe("accountRoutes' configuration errors", () => {
  it("names secretKeyBase when the guide's process.env.SECRET_KEY_BASE! is unset", () => {
    const options = { ...stores, secretKeyBase: process.env.TESSERA_NEVER_SET! };
    expect(errorOf(options).message).toBe(
      `accountRoutes: \`secretKeyBase\` is missing: ${SECRET_ADVICE}`,
    );
  });

  it("names secretKeyBase when it is empty, short, or not a string", () => {
    expect(errorOf(withOption("secretKeyBase", "")).message).toBe(
      `accountRoutes: \`secretKeyBase\` is missing: ${SECRET_ADVICE}`,
    );
    expect(errorOf(withOption("secretKeyBase", "too-short")).message).toBe(
      `accountRoutes: \`secretKeyBase\` is 9 characters long: ${SECRET_ADVICE}`,
    );
    expect(errorOf(withOption("secretKeyBase", 42)).message).toBe(
      `accountRoutes: \`secretKeyBase\` is a number, not a string: ${SECRET_ADVICE}`,
    );
  });

  it("names the current or previous secret of a rotation", () => {
    expect(
      errorOf(withOption("secretKeyBase", { current: process.env.TESSERA_NEVER_SET })).message,
    ).toBe(`accountRoutes: \`secretKeyBase.current\` is missing: ${SECRET_ADVICE}`);
    expect(errorOf(withOption("secretKeyBase", { current: SECRET, previous: "old" })).message).toBe(
      `accountRoutes: \`secretKeyBase.previous\` is 3 characters long: ${SECRET_ADVICE}`,
    );
  });

  it("accepts a rotation whose previous secret is unset", () => {
    const options = withOption("secretKeyBase", {
      current: SECRET,
      previous: process.env.TESSERA_NEVER_SET,
    });
    expect(accountRoutes(options).routes.length).toBeGreaterThan(0);
  });

  it.each(["users", "apiKeys", "emailedTokens", "rateLimits"])("names a missing %s", (name) => {
    expect(errorOf(withOption(name, undefined)).message).toMatch(
      new RegExp(`^accountRoutes: \`${name}\` is missing: .*${escapeRegExp(STORE_ADVICE)}$`),
    );
  });

  it("names a store without one of its methods", () => {
    const userStore = Object.fromEntries(
      ["create", "findById", "findByEmail", "delete", "updatePasswordDigest"].map((method) => [
        method,
        () => undefined,
      ]),
    );
    expect(errorOf(withOption("users", userStore)).message).toBe(
      "accountRoutes: `users` has no `confirm` method: pass a store with `create`, `findById`, " +
        `\`findByEmail\`, \`delete\`, \`updatePasswordDigest\`, \`confirm\`, \`changeEmail\`, ` +
        `\`updateColumns\`, ${STORE_ADVICE}`,
    );
    expect(errorOf(withOption("emailedTokens", { issue() {}, consume() {} })).message).toBe(
      "accountRoutes: `emailedTokens` has no `peek` method: pass a store with `issue`, " +
        `\`consume\`, \`peek\`, ${STORE_ADVICE}`,
    );
  });

  it("names rate limits that can neither count nor attempt", () => {
    expect(errorOf(withOption("rateLimits", { limit() {} })).message).toBe(
      "accountRoutes: `rateLimits` has neither `increment` nor `attempt`: pass a counter store " +
        `with \`increment\` or a limiter with \`attempt\`, ${STORE_ADVICE}`,
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
