import { MINIMUM_SECRET_LENGTH, type SecretKeyBase } from "@tessera/crypto";

const ADVICE = `pass { current: process.env.SECRET_KEY_BASE } with a secret of ${MINIMUM_SECRET_LENGTH} or more characters (generate one with \`openssl rand -hex 32\`)`;

/**
 * Checks `createSessionCookies`' secrets before keys are derived from them, so the error names
 * the option: an unset `SECRET_KEY_BASE` is a `TypeError`, a short one a `RangeError`, each
 * saying what to pass.
 */
export function checkSessionSecrets(secrets: SecretKeyBase | undefined): void {
  const given = secrets as unknown;
  if (typeof given !== "object" || given === null) {
    throw new TypeError(`createSessionCookies: \`secrets\` is missing: ${ADVICE}`);
  }
  const { current, previous } = given as { current?: unknown; previous?: unknown };
  for (const [name, secret] of [
    ["secrets.current", current],
    // An unset SECRET_KEY_BASE_PREVIOUS is the usual case: only a present one must be usable.
    ["secrets.previous", previous === "" ? undefined : previous],
  ] as const) {
    if (secret === undefined && name === "secrets.previous") continue;
    if (typeof secret !== "string" || secret === "") {
      throw new TypeError(`createSessionCookies: \`${name}\` is missing: ${ADVICE}`);
    }
    if (secret.length < MINIMUM_SECRET_LENGTH) {
      throw new RangeError(
        `createSessionCookies: \`${name}\` is ${secret.length} characters long: ${ADVICE}`,
      );
    }
  }
}
