import { type Clock, type Locale, systemClock, unstorableText } from "@tessera/core";
import {
  hashPassword,
  type PasswordHashOptions,
  verifyDummyPassword,
  verifyPassword,
} from "@tessera/password";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import { type AccountNotices, mailAccountNotice } from "../notice-mail-delivery.js";
import { type AccountThrottle, PASSWORD_THROTTLE_GROUP } from "../sign-in/account-throttle.js";
import { throttledSignInMail } from "../sign-in/throttled-sign-in-mail.js";
import { normalizeEmail } from "../users/email.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";

/**
 * Finds the user with this email and password. An unknown email, or a user without a password,
 * costs one dummy verification, so timing does not tell which accounts exist. An email holding
 * a NUL or a lone surrogate is unknown without a lookup (PostgreSQL refuses such a parameter,
 * and no stored address holds one). A digest weaker than the configured one is replaced while
 * the password is known (a stronger one stays).
 */
export async function findUserByPassword(
  users: UserStore,
  email: string,
  password: string,
  options: {
    readonly clock?: Clock | undefined;
    readonly passwords?: PasswordHashOptions | undefined;
  } = {},
): Promise<User | undefined> {
  const user = await accountOf(users, email);
  if (!user) {
    await verifyDummyPassword(password, options.passwords);
    return undefined;
  }
  return (await checkPassword(users, user, password, options)) ? user : undefined;
}

/** The account of a submitted email; unknown, without a lookup, for one no row can hold. */
function accountOf(users: UserStore, email: string): Promise<User | undefined> {
  const normalized = normalizeEmail(email);
  return unstorableText(normalized) ? Promise.resolve(undefined) : users.findByEmail(normalized);
}

/**
 * Verifies a known user's password (false for a user without one), rehashing when due. A digest
 * this runtime may not verify (see `PasswordHashOptions.maximumFallbackIterations`) is refused
 * like a wrong password, and said on stderr: a different answer would tell any caller that the
 * account exists, and a password reset, which the failed sign-in offers, replaces the digest.
 */
export async function checkPassword(
  users: UserStore,
  user: User,
  password: string,
  options: {
    readonly clock?: Clock | undefined;
    readonly passwords?: PasswordHashOptions | undefined;
  } = {},
): Promise<boolean> {
  if (user.passwordDigest === "") {
    await verifyDummyPassword(password, options.passwords);
    return false;
  }
  const check = await verifyPassword(password, user.passwordDigest, options.passwords);
  if (check.unverifiable) {
    const { iterations, maximumIterations } = check.unverifiable;
    console.error(
      `Cannot verify the password of user ${user.id}: its digest has ${iterations} iterations, above the ${maximumIterations} this runtime verifies; the sign-in was refused as a wrong password. Raise maximumFallbackIterations, or have the user reset the password.`,
    );
  }
  if (check.valid && check.needsRehash) {
    const digest = await hashPassword(password, options.passwords);
    await users.updatePasswordDigest(user.id, digest, (options.clock ?? systemClock)());
  }
  return check.valid;
}

/** What a password sign-in is judged with. */
export interface PasswordSignInParts {
  readonly users: UserStore;
  readonly clock?: Clock | undefined;
  readonly passwords?: PasswordHashOptions | undefined;
  /** Per-account throttling of the guesses; without it each is judged. */
  readonly throttle?: AccountThrottle | undefined;
  /** Where the owner of an account that starts waiting is told; without them nobody is. */
  readonly notices?: AccountNotices | undefined;
  /** Where failed sign-ins and throttling are recorded (the audit trail). */
  readonly events?: AccountEvents | undefined;
}

/** A password sign-in's outcome: the user, or a refusal, with the wait when throttled. */
export type PasswordSignIn =
  | { readonly ok: true; readonly user: User }
  | { readonly ok: false; readonly reason: "invalid" }
  | { readonly ok: false; readonly reason: "throttled"; readonly retryAfterSeconds: number };

/**
 * The password step of every way in (`POST /login`, `POST /api/auth/token`): the guess is
 * counted against the account key of `email` before it is judged, refused unjudged while the
 * key waits, and judged as {@link findUserByPassword} judges; a right one resets the count.
 * Each refusal is recorded as `user.sign_in_failed` (with no user for an address that has no
 * account), and the guess that starts the waits as `user.throttled`; it also mails the owner
 * `Someone is trying to sign in to your account`, without holding the answer, which is the
 * same for an address that has no account.
 */
export async function signInWithPassword(
  parts: PasswordSignInParts,
  email: string,
  password: string,
  at: HookRequest & { readonly locale?: Locale | undefined },
): Promise<PasswordSignIn> {
  const throttle = parts.throttle?.throttle;
  const accountKey = parts.throttle?.accountKey(email) ?? "";
  const decision = await throttle?.attempt(PASSWORD_THROTTLE_GROUP, accountKey);
  const account = await accountOf(parts.users, email);
  const failed = (reason: string) =>
    parts.events?.audited("user.sign_in_failed", account?.id ?? null, at, {
      details: { method: "password", reason },
    });
  if (decision && !decision.allowed) {
    await failed("throttled");
    return { ok: false, reason: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
  }
  const right = account
    ? await checkPassword(parts.users, account, password, parts)
    : await verifyDummyPassword(password, parts.passwords).then(() => false);
  if (account && right) {
    await throttle?.succeeded(PASSWORD_THROTTLE_GROUP, accountKey);
    return { ok: true, user: account };
  }
  await failed("wrong_password");
  if (decision?.startsWaits) {
    await parts.events?.audited("user.throttled", account?.id ?? null, at);
    if (account && parts.notices) {
      const { notices } = parts;
      const now = (parts.clock ?? systemClock)();
      void mailAccountNotice(notices, at.request, "sign_in_throttled", (origin) =>
        throttledSignInMail({ to: account.email, at: now, origin, locale: at.locale }),
      ).catch((error: unknown) => notices.reportMailError(error, "sign_in_throttled"));
    }
  }
  return { ok: false, reason: "invalid" };
}
