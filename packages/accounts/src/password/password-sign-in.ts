import { type Clock, systemClock, unstorableText } from "@tessera/core";
import {
  hashPassword,
  type PasswordHashOptions,
  verifyDummyPassword,
  verifyPassword,
} from "@tessera/password";
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
  options: { readonly clock?: Clock; readonly passwords?: PasswordHashOptions } = {},
): Promise<User | undefined> {
  const normalized = normalizeEmail(email);
  const user = unstorableText(normalized) ? undefined : await users.findByEmail(normalized);
  if (!user || user.passwordDigest === "") {
    await verifyDummyPassword(password, options.passwords);
    return undefined;
  }
  return (await checkPassword(users, user, password, options)) ? user : undefined;
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
  options: { readonly clock?: Clock; readonly passwords?: PasswordHashOptions } = {},
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
