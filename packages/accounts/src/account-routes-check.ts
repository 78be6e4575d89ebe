import { configurationError as namedError } from "@tessera/core";
import { MINIMUM_SECRET_LENGTH } from "@tessera/crypto";

/** How to make a secret, said in every secret error. */
const SECRET_ADVICE = `pass a secret of ${MINIMUM_SECRET_LENGTH} or more characters, e.g. process.env.SECRET_KEY_BASE (generate one with \`openssl rand -hex 32\`)`;

/** The stores `accountRoutes` calls, with the methods each must have. */
const STORE_METHODS = {
  users: [
    "create",
    "findById",
    "findByEmail",
    "delete",
    "updatePasswordDigest",
    "confirm",
    "changeEmail",
    "updateColumns",
  ],
  apiKeys: ["create", "listForUser", "deleteForUser", "findByDigest", "touchLastUsed"],
  emailedTokens: ["issue", "consume", "peek"],
} as const;

/** Where to get the stores from, said in every store error. */
const STORE_ADVICE = "e.g. spread `sqlAccountStores(database)` from @tessera/accounts/sql";

/** The one error of a configuration mistake: the option, and what to pass. */
function configurationError(option: string, problem: string, advice: string): TypeError {
  return namedError("accountRoutes", option, problem, advice);
}

function hasMethods(value: unknown, methods: readonly string[]): string | undefined {
  const holder = value as Record<string, unknown>;
  return methods.find((method) => typeof holder[method] !== "function");
}

function checkSecret(option: string, secret: unknown): void {
  if (secret === undefined || secret === null || secret === "") {
    throw configurationError(option, "is missing", SECRET_ADVICE);
  }
  if (typeof secret !== "string") {
    throw configurationError(option, `is a ${typeof secret}, not a string`, SECRET_ADVICE);
  }
  if (secret.length < MINIMUM_SECRET_LENGTH) {
    throw configurationError(option, `is ${secret.length} characters long`, SECRET_ADVICE);
  }
}

function checkSecretKeyBase(secretKeyBase: unknown): void {
  if (typeof secretKeyBase === "object" && secretKeyBase !== null) {
    const { current, previous } = secretKeyBase as { current?: unknown; previous?: unknown };
    checkSecret("secretKeyBase.current", current);
    // An unset SECRET_KEY_BASE_PREVIOUS is the usual case: only a present one must be usable.
    if (previous !== undefined && previous !== "") checkSecret("secretKeyBase.previous", previous);
    return;
  }
  checkSecret("secretKeyBase", secretKeyBase);
}

function checkStore(option: string, store: unknown, methods: readonly string[]): void {
  if (typeof store !== "object" || store === null) {
    throw configurationError(option, "is missing", STORE_ADVICE);
  }
  const missing = hasMethods(store, methods);
  if (missing !== undefined) {
    throw configurationError(
      option,
      `has no \`${missing}\` method`,
      `pass a store with ${methods.map((method) => `\`${method}\``).join(", ")}, ${STORE_ADVICE}`,
    );
  }
}

function checkRateLimits(rateLimits: unknown): void {
  const advice = `pass a counter store with \`increment\` or a limiter with \`attempt\`, ${STORE_ADVICE}`;
  if (typeof rateLimits !== "object" || rateLimits === null) {
    throw configurationError("rateLimits", "is missing", advice);
  }
  const limits = rateLimits as Record<string, unknown>;
  if (typeof limits.increment !== "function" && typeof limits.attempt !== "function") {
    throw configurationError("rateLimits", "has neither `increment` nor `attempt`", advice);
  }
}

/**
 * Checks `accountRoutes`' required options before anything is built from them, so a mistake
 * (an unset `process.env.SECRET_KEY_BASE!`, a store left out of the spread) is one `TypeError`
 * naming the option and what to pass, never an error from inside a key ring or a first request.
 * @throws {TypeError} for the first option that is missing, too short or not what it must be.
 */
export function checkAccountRoutesOptions(options: unknown): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `accountRoutes: the options are missing: pass the stores (${STORE_ADVICE}) and \`secretKeyBase\``,
    );
  }
  const given = options as Record<string, unknown>;
  checkSecretKeyBase(given.secretKeyBase);
  for (const [option, methods] of Object.entries(STORE_METHODS)) {
    checkStore(option, given[option], methods);
  }
  checkRateLimits(given.rateLimits);
}
