import type { RefreshTokenFamily, RefreshTokenStore } from "@tessera/bearer";
import { signedInBeforeCredentialsChanged } from "@tessera/core";
import type { User } from "../users/user.js";

/**
 * The user's app sign-ins that still work at `now`: their refresh token families neither
 * revoked nor expired, newest sign-in first, without those signed in before the user's
 * credentials last changed (a password change that signed the others out, a ban), which are
 * dead whatever their rows say.
 */
export async function listAppSignIns(
  store: RefreshTokenStore,
  user: Pick<User, "id" | "credentialsChangedAt">,
  now: number,
): Promise<RefreshTokenFamily[]> {
  const families = await store.listFamilies(user.id, now);
  return families.filter(
    (family) => !signedInBeforeCredentialsChanged(family.authTime, user.credentialsChangedAt),
  );
}

/**
 * Signs app sign-in `familyId` out (revokes its family): its refresh token is then refused and
 * the app must sign in again. Only a family {@link listAppSignIns} lists for `user` is ended;
 * false for any other (another user's, an ended one, none), answered like a missing one.
 */
export async function endAppSignIn(
  store: RefreshTokenStore,
  user: Pick<User, "id" | "credentialsChangedAt">,
  familyId: number,
  now: number,
): Promise<boolean> {
  const listed = await listAppSignIns(store, user, now);
  if (!listed.some((family) => family.id === familyId)) return false;
  return store.revokeFamily(familyId, now);
}

/**
 * Signs every app of the user out (revokes all their families, dead ones included) and returns
 * how many were still unrevoked.
 */
export function endAllAppSignIns(
  store: RefreshTokenStore,
  userId: number,
  now: number,
): Promise<number> {
  return store.revokeUserFamilies(userId, now);
}
