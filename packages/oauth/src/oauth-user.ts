import type { SessionSignIns, User, UserStore } from "@tessera/accounts";
import { type Clock, fail, ok, type Result } from "@tessera/core";
import type { IdentityStore } from "./identity-store.js";
import type { ProviderProfile } from "./provider-profile.js";

/** What {@link resolveOAuthUser} works with. */
export interface OAuthUserDependencies {
  readonly users: UserStore;
  readonly identities: IdentityStore;
  readonly clock: Clock;
  /** Whether a user has a second factor, and removing an unproven owner's (the sign-in grant's). */
  readonly factors?: Pick<SessionSignIns, "hasSecondFactor" | "removeSecondFactors"> | undefined;
}

/**
 * How the user was found: already linked to the provider account (`returning`), found by the
 * verified address and linked now (`linked`), found by the verified address but to be linked
 * only once the sign-in's second step passes (`link-after-second-step`: the user has a second
 * factor, which a provider account does not stand for), or created (`created`).
 */
export type OAuthUserOutcome = "returning" | "linked" | "link-after-second-step" | "created";

/** The user to sign in. */
export interface OAuthUser {
  readonly user: User;
  readonly outcome: OAuthUserOutcome;
  /**
   * True when the account was unconfirmed and had a password, which was removed: whoever set it
   * never proved they own the address, and the provider has just proved someone else does.
   */
  readonly passwordRemoved: boolean;
}

/**
 * Why nobody is signed in: the provider shared no valid address (`email-missing`), or one it
 * does not vouch for (`email-unverified`); or a concurrent change (a user deleted mid-way, an
 * identity naming a deleted user) left nothing consistent to sign in (`conflict`).
 */
export type OAuthUserRefusal = "email-missing" | "email-unverified" | "conflict";

/**
 * Finds the user a provider profile signs in, in this order: the user linked to that
 * provider account; else the user with the same verified address, who is then linked (for a
 * user with a second factor, only once the sign-in's second step passes: the caller links); else
 * a new user, confirmed, without a password, and linked. An address the provider does not vouch
 * for never links nor creates anything. An unconfirmed account found by the address loses the
 * password and second factors its unproven owner set. Races end in one user and one link: a
 * lost email race links the winner's user, a lost link race signs in the user the winning link
 * names.
 */
export async function resolveOAuthUser(
  dependencies: OAuthUserDependencies,
  provider: string,
  profile: ProviderProfile,
): Promise<Result<OAuthUser, OAuthUserRefusal>> {
  const { users, identities } = dependencies;
  const now = dependencies.clock();
  const linkedId = await identities.findUserId(provider, profile.subject);
  if (linkedId !== undefined) return returningUser(dependencies, linkedId, profile, now);
  if (profile.email === undefined) return fail("email-missing");
  if (!profile.emailVerified) return fail("email-unverified");
  const email = profile.email;

  let user = await users.findByEmail(email);
  let outcome: OAuthUserOutcome = "linked";
  if (!user) {
    const created = await users.create({ email, passwordDigest: "", confirmedAt: now }, now);
    // A lost race means a sign-up took the address a moment ago: link that user instead.
    user = created.ok ? created.value : await users.findByEmail(email);
    if (!user) return fail("conflict");
    if (created.ok) outcome = "created";
  }

  const factors = dependencies.factors;
  if (user.confirmedAt !== null && factors && (await factors.hasSecondFactor(user))) {
    return ok({ user, outcome: "link-after-second-step", passwordRemoved: false });
  }
  const link = { userId: user.id, provider, subject: profile.subject, email };
  const linked = await identities.link(link, now);
  if (!linked.ok) {
    const winnerId = await identities.findUserId(provider, profile.subject);
    if (winnerId === undefined) return fail("conflict");
    return returningUser(dependencies, winnerId, profile, now);
  }

  let passwordRemoved = false;
  if (user.confirmedAt === null) {
    // Pre-account hijacking: an attacker can sign up with someone's address and a password of
    // their own, then wait for the owner to arrive through a provider. The password goes.
    // Whoever set a second factor or a passkey there never proved the address either.
    if (user.passwordDigest !== "") {
      await users.updatePasswordDigest(user.id, "", now);
      passwordRemoved = true;
    }
    await factors?.removeSecondFactors(user.id);
    await users.confirm(user.id, now);
    user = (await users.findById(user.id)) ?? user;
  }
  return ok({ user, outcome, passwordRemoved });
}

/** The linked user, confirmed when the provider vouches for the very address they have. */
async function returningUser(
  { users }: OAuthUserDependencies,
  userId: number,
  profile: ProviderProfile,
  now: number,
): Promise<Result<OAuthUser, OAuthUserRefusal>> {
  let user = await users.findById(userId);
  if (!user) return fail("conflict");
  if (user.confirmedAt === null && profile.emailVerified && profile.email === user.email) {
    await users.confirm(user.id, now);
    user = (await users.findById(user.id)) ?? user;
  }
  return ok({ user, outcome: "returning", passwordRemoved: false });
}
