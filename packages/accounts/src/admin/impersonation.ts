import { ACTING_JWT_LIFETIME_SECONDS, type SignInAuthentication } from "@tessera/bearer";
import { type Clock, formatTimestamp, signedInBeforeCredentialsChanged } from "@tessera/core";
import type { Session } from "@tessera/session";
import type { AccountEvents, HookRequest } from "../account-hooks.js";
import { readActingOperator } from "../sign-in/acting-operator.js";
import { isBanned, type User } from "../users/user.js";
import type { UserAdministration, UserStore } from "../users/user-store.js";
import { isAdmin } from "./admin-access.js";

/** The factor an impersonation's token (`amr`) and device stand for. */
export const IMPERSONATION_FACTOR = "impersonation";

/** How long an impersonation lasts at most, token or session: one hour, in seconds. */
export const IMPERSONATION_LIFETIME_SECONDS = ACTING_JWT_LIFETIME_SECONDS;

/** What impersonation is judged and recorded with. */
export interface ImpersonationParts {
  readonly users: UserStore & UserAdministration;
  readonly events: AccountEvents;
  readonly clock: Clock;
  readonly adminEmails?: readonly string[] | undefined;
}

/**
 * Whether an operator may act as `target`: never as an operator (whose powers they would borrow
 * or hide behind), nor as a banned user (whose every sign-in is refused).
 */
export function isImpersonable(
  parts: Pick<ImpersonationParts, "clock" | "adminEmails">,
  target: User,
): boolean {
  return !isAdmin(target, parts.adminEmails) && !isBanned(target, parts.clock());
}

/**
 * Starts `operator`'s impersonation of `target`, recorded as `user.impersonation_started` with
 * the operator as actor: the sign-in the token or session then carries (the
 * {@link IMPERSONATION_FACTOR}, `actor` the operator's id), or `not-impersonable`.
 */
export async function startImpersonation(
  parts: ImpersonationParts,
  operator: User,
  target: User,
  at: HookRequest,
): Promise<SignInAuthentication | "not-impersonable"> {
  if (!isImpersonable(parts, target)) return "not-impersonable";
  // A stop ends every token issued in its own second (`iat` has no finer grain): one started
  // in that same second waits for the next, or it would be born ended.
  const ended = operator.impersonationsEndedAt;
  const wait = ended == null ? 0 : nextSecondOf(ended) - parts.clock();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const now = parts.clock();
  await parts.events.audited("user.impersonation_started", target.id, at, {
    actorId: operator.id,
    details: { expires_at: formatTimestamp(now + IMPERSONATION_LIFETIME_SECONDS * 1000) },
  });
  return { at: now, factors: [IMPERSONATION_FACTOR], actor: String(operator.id) };
}

/**
 * Ends the operator's impersonation of `target`, recorded as `user.impersonation_stopped`:
 * every token acting for a user the operator was given until now stops working.
 */
export async function stopImpersonation(
  parts: ImpersonationParts,
  operatorId: number,
  target: User,
  at: HookRequest,
): Promise<void> {
  await parts.users.endImpersonations(operatorId, parts.clock());
  await parts.events.audited("user.impersonation_stopped", target.id, at, {
    actorId: operatorId,
  });
}

/** What judging an impersonation in progress reads: the users, the clock, `ADMIN_EMAILS`. */
type ImpersonationCheckParts = Pick<ImpersonationParts, "clock" | "adminEmails"> & {
  readonly users: UserStore;
};

/**
 * Whether an impersonation `operatorId` started at `startedAt` (epoch ms) may go on: while the
 * operator still is one (not banned, the role or address kept) and has neither stopped
 * impersonating nor had their own sign-ins ended since it started. Unlike a credential change,
 * a stop in its own second ends it too: one started and stopped within a second must not
 * outlive the stop. Tokens and page sessions are judged alike.
 */
async function operatorMayStillAct(
  parts: ImpersonationCheckParts,
  operatorId: number,
  startedAt: number,
): Promise<boolean> {
  const operator = await parts.users.findById(operatorId);
  if (operator === undefined || isBanned(operator, parts.clock())) return false;
  if (!isAdmin(operator, parts.adminEmails)) return false;
  if (signedInBeforeCredentialsChanged(startedAt, operator.credentialsChangedAt)) return false;
  const ended = operator.impersonationsEndedAt;
  return ended == null || startedAt >= nextSecondOf(ended);
}

/**
 * The bearer authenticator's `checkActor`: a token acting for `user` works while `user` is
 * still impersonable and its operator still is one (not banned, the role or address kept) who
 * has neither stopped impersonating nor had their own sign-ins ended since the token was issued
 * (a stop in the token's own second ends it too).
 */
export function impersonationActorCheck(
  parts: ImpersonationCheckParts,
): (actorId: string, user: User, issuedAt: number) => Promise<boolean> {
  return async (actorId, user, issuedAt) =>
    isImpersonable(parts, user) && operatorMayStillAct(parts, Number(actorId), issuedAt);
}

/**
 * The session cookies' `checkSignIn`: a page session an operator acts as a user in goes on by
 * the rule of {@link impersonationActorCheck}, judged from when it was signed in; every other
 * session goes on without a lookup.
 */
export function impersonationSessionCheck(
  parts: ImpersonationCheckParts,
): (session: Session) => Promise<boolean> {
  return async (session) => {
    const acting = readActingOperator(session);
    if (acting === undefined) return true;
    return operatorMayStillAct(parts, acting.operatorId, session.signedInAt ?? 0);
  };
}

/** The first millisecond of the second after `time`'s. */
function nextSecondOf(time: number): number {
  return (Math.floor(time / 1000) + 1) * 1000;
}
