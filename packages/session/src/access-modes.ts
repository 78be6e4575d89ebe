import { type Locale, signedInBeforeCredentialsChanged } from "@tessera/core";
import { seeOther } from "@tessera/http";
import type { Session } from "./session.js";
import { sessionMessages } from "./session-messages.js";

/** Where a visitor without a session is sent. */
export const LOGIN_PATH = "/login";
/** Where a signed-in user whose email is not confirmed is sent by the confirmed mode. */
export const ACCOUNT_PATH = "/account";

/**
 * Loads a user by id with one query; undefined when there is none (the user was deleted), and
 * the session then counts as no session.
 */
export type UserLoader<U> = (userId: number) => Promise<U | undefined>;

/** Why an access mode refused a request. */
export type AccessRefusal = "not-signed-in" | "unconfirmed";

/**
 * The user, or the refusal with its ready 303 redirect. The refusal put a flash (and perhaps
 * the remembered page) in the session: commit the session onto that response.
 */
export type AccessResult<U> =
  | { readonly ok: true; readonly value: U }
  | { readonly ok: false; readonly reason: AccessRefusal; readonly response: Response };

/**
 * The optional-user mode: the signed-in user, or undefined. A session whose user no longer
 * exists is signed out, so its cookie stops naming a deleted user; so is a session signed in
 * before the user's `credentialsChangedAt` (epoch ms, when the user object has one), so a
 * password change that signs out other devices reaches every page.
 */
export async function optionalUser<U>(
  session: Session,
  loadUser: UserLoader<U>,
): Promise<U | undefined> {
  const userId = session.userId;
  if (userId === undefined) return undefined;
  const user = await loadUser(userId);
  if (user === undefined || signedInBeforeChange(session, user)) {
    session.signOut();
    return undefined;
  }
  return user;
}

function signedInBeforeChange(session: Session, user: unknown): boolean {
  const changedAt = (user as { readonly credentialsChangedAt?: unknown }).credentialsChangedAt;
  return (
    typeof changedAt === "number" &&
    signedInBeforeCredentialsChanged(session.signedInAt ?? 0, changedAt)
  );
}

/**
 * The logged-in-user mode: the user (one query), or a 303 to {@link LOGIN_PATH} with the alert
 * `session.login_required` of {@link sessionMessages} in `locale` (the request's
 * `context.locale`). For a GET the page asked for (path and query) is remembered, so sign-in can
 * return to it; for other methods it is not.
 */
export async function requireUser<U>(
  session: Session,
  request: Request,
  loadUser: UserLoader<U>,
  locale?: Locale,
): Promise<AccessResult<U>> {
  const user = await optionalUser(session, loadUser);
  if (user !== undefined) return { ok: true, value: user };
  if (request.method === "GET") {
    const url = new URL(request.url);
    session.rememberPage(url.pathname + url.search);
  }
  session.flash("alert", sessionMessages.text(locale, "session.login_required"));
  return { ok: false, reason: "not-signed-in", response: seeOther(LOGIN_PATH) };
}

/**
 * The confirmed-user mode: as {@link requireUser}, and a signed-in user whose `confirmedAt` is
 * null gets a 303 to {@link ACCOUNT_PATH} with the alert `session.confirmation_required`, both
 * alerts in `locale`.
 */
export async function requireConfirmedUser<U extends { readonly confirmedAt: unknown }>(
  session: Session,
  request: Request,
  loadUser: UserLoader<U>,
  locale?: Locale,
): Promise<AccessResult<U>> {
  const access = await requireUser(session, request, loadUser, locale);
  if (!access.ok || access.value.confirmedAt !== null) return access;
  session.flash("alert", sessionMessages.text(locale, "session.confirmation_required"));
  return { ok: false, reason: "unconfirmed", response: seeOther(ACCOUNT_PATH) };
}
