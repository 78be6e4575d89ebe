/**
 * Whether a sign-in made at `signedInAt` came before the user's credentials last changed at
 * `credentialsChangedAt` (both epoch milliseconds; null or undefined: never changed), so the
 * token or session it gave must stop working.
 *
 * Both are compared in whole seconds, the precision of a JWT's `iat` and of a SQL store's
 * timestamps: a sign-in made in the same second as the change, before or after it, survives
 * it. That keeps the token a change itself hands out valid on every store, at the cost of a
 * window of under a second.
 */
export function signedInBeforeCredentialsChanged(
  signedInAt: number,
  credentialsChangedAt: number | null | undefined,
): boolean {
  if (credentialsChangedAt === null || credentialsChangedAt === undefined) return false;
  return Math.floor(signedInAt / 1000) < Math.floor(credentialsChangedAt / 1000);
}
