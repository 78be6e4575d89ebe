import type { SignInAuthentication } from "@tessera/bearer";
import { ACTING_OPERATOR_VALUE, type Session } from "@tessera/session";

/**
 * An operator acting as the signed-in user, as the session keeps it: who, and how they had
 * signed in themselves (restored when they stop, so stopping never makes a sign-in fresher).
 */
export interface ActingOperator {
  readonly operatorId: number;
  readonly authentication: SignInAuthentication | undefined;
}

// "<operator id>~<epoch ms, base 36>~<factor>.<factor>", or "<operator id>" alone for an operator
// whose session kept no sign-in: session values are URL-safe characters only.
const STORED = /^([1-9][0-9]{0,15})(?:~([0-9a-z]{1,12})~([a-z_]{1,32}(?:\.[a-z_]{1,32}){0,2}))?$/;

/** Marks the session as an operator's, acting as the user it is signed in as. */
export function rememberActingOperator(session: Session, operator: ActingOperator): void {
  const { operatorId, authentication } = operator;
  const signIn = authentication
    ? `~${Math.max(0, Math.floor(authentication.at)).toString(36)}~${authentication.factors.join(".")}`
    : "";
  session.set(ACTING_OPERATOR_VALUE, `${operatorId}${signIn}`);
}

/** The operator acting as the session's user; undefined for the user's own session. */
export function readActingOperator(session: Session): ActingOperator | undefined {
  const match = STORED.exec(session.get(ACTING_OPERATOR_VALUE) ?? "");
  if (!match) return undefined;
  const authentication =
    match[2] === undefined
      ? undefined
      : { at: Number.parseInt(match[2], 36), factors: match[3]!.split(".") };
  return { operatorId: Number(match[1]), authentication };
}
