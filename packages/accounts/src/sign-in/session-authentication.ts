import type { SignInAuthentication } from "@tessera/bearer";
import type { Session } from "@tessera/session";
import { readActingOperator } from "./acting-operator.js";

/**
 * The session value that keeps when, and with which factors, the person last proved who they
 * are on this browser (a sign-in, or confirming it is them again): what a JWT's `auth_time`
 * and `amr` say of a token. Cookie sessions are sealed, so the value cannot be forged.
 */
export const AUTHENTICATION_VALUE = "signed_in_with";

// "<epoch ms, base 36>~<factor>.<factor>": session values are URL-safe characters only.
const STORED = /^([0-9a-z]{1,12})~([a-z_]{1,32}(?:\.[a-z_]{1,32}){0,2})$/;

/** Keeps `authentication` in the session, replacing what it said before. */
export function rememberSessionAuthentication(
  session: Session,
  authentication: SignInAuthentication,
): void {
  const at = Math.max(0, Math.floor(authentication.at)).toString(36);
  session.set(AUTHENTICATION_VALUE, `${at}~${authentication.factors.join(".")}`);
}

/**
 * The authentication the session keeps, with the `actor` of an operator acting as its user;
 * undefined when it keeps none (or one it cannot read).
 */
export function readSessionAuthentication(session: Session): SignInAuthentication | undefined {
  const match = STORED.exec(session.get(AUTHENTICATION_VALUE) ?? "");
  if (!match) return undefined;
  const acting = readActingOperator(session);
  return {
    at: Number.parseInt(match[1]!, 36),
    factors: match[2]!.split("."),
    ...(acting ? { actor: String(acting.operatorId) } : {}),
  };
}
