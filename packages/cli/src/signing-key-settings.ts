import type { AsymmetricJwtAlgorithm } from "@tessera/bearer";
import type { Outcome } from "./commands.js";

/**
 * The shortest `SECRET_KEY_BASE` a key can be derived from: `MINIMUM_SECRET_LENGTH` of
 * @tessera/crypto, which the CLI does not depend on.
 */
export const MINIMUM_SECRET_LENGTH = 32;

/** The settings the database's signing keys depend on, as the app reads them. */
export interface SigningKeySettings {
  /** `JWT_ALGORITHM`: what the new key is for. */
  readonly algorithm: AsymmetricJwtAlgorithm;
  /** `SECRET_KEY_BASE` seals the new key; `SECRET_KEY_BASE_PREVIOUS` still opens older ones. */
  readonly secrets: { readonly current: string; readonly previous?: string | undefined };
}

type Refusal = Extract<Outcome, { ok: false }>;

const HS256_HINT =
  "HS256 tokens are signed with a key derived from SECRET_KEY_BASE: rotate that secret instead (the old value in SECRET_KEY_BASE_PREVIOUS keeps verifying); with JWT_ALGORITHM=EdDSA or ES256, as the app runs, this command rotates the database's signing keys";

const SECRET_HINT =
  "set SECRET_KEY_BASE to the app's secret (in development the app keeps it in data/secret_key_base: `SECRET_KEY_BASE=$(cat data/secret_key_base) tessera keys rotate`): the new private key is sealed under it, and the app must open it";

/** `env[name]`, or undefined when it is unset or only blanks (as the app reads its settings). */
function setting(env: Readonly<Record<string, string | undefined>>, name: string) {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * The settings of `tessera keys rotate` from the environment, or the refusal of those that
 * leave no database key to rotate (`JWT_ALGORITHM` HS256 or unset, `JWT_PRIVATE_KEYS` set) or
 * cannot seal one (`SECRET_KEY_BASE` missing or short).
 */
export function signingKeySettings(
  env: Readonly<Record<string, string | undefined>>,
): { readonly ok: true; readonly value: SigningKeySettings } | Refusal {
  const algorithm = setting(env, "JWT_ALGORITHM");
  if (algorithm === undefined) {
    return refused("JWT_ALGORITHM is not set, so tokens are HS256: no key to rotate", HS256_HINT);
  }
  if (algorithm === "HS256") {
    return refused("JWT_ALGORITHM is HS256: no key to rotate", HS256_HINT);
  }
  if (algorithm !== "EdDSA" && algorithm !== "ES256") {
    return refused(
      `unknown JWT_ALGORITHM \`${algorithm}\``,
      "write JWT_ALGORITHM=EdDSA or JWT_ALGORITHM=ES256, as the app runs with",
    );
  }
  if (setting(env, "JWT_PRIVATE_KEYS") !== undefined) {
    return refused(
      "JWT_PRIVATE_KEYS is set: the app signs with the keys it gives, not the database's",
      "rotate by putting a new private key first in JWT_PRIVATE_KEYS and keeping the old ones after it until their tokens expire; if the app keeps its keys in the database, run this command without JWT_PRIVATE_KEYS",
    );
  }
  const current = setting(env, "SECRET_KEY_BASE");
  if (current === undefined) return refused("SECRET_KEY_BASE is not set", SECRET_HINT);
  if (current.length < MINIMUM_SECRET_LENGTH)
    return refused(tooShort("SECRET_KEY_BASE"), SECRET_HINT);
  const previous = setting(env, "SECRET_KEY_BASE_PREVIOUS");
  if (previous !== undefined && previous.length < MINIMUM_SECRET_LENGTH) {
    return refused(
      tooShort("SECRET_KEY_BASE_PREVIOUS"),
      "set it to the secret the app had before SECRET_KEY_BASE, as the app runs with, or leave it unset",
    );
  }
  return {
    ok: true,
    value: { algorithm, secrets: { current, ...(previous !== undefined ? { previous } : {}) } },
  };
}

function tooShort(name: string): string {
  return `${name} is too short: it needs at least ${MINIMUM_SECRET_LENGTH} characters`;
}

function refused(reason: string, hint: string): Refusal {
  return { ok: false, reason, hint };
}
