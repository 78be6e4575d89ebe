import type { SignInAuthentication } from "@tessera/bearer";
import { badRequest, type RouteContext } from "@tessera/http";
import type { PasswordHashOptions } from "@tessera/password";
import { accountErrorAnswer } from "../account-errors.js";
import type { BearerUserContext } from "../bearer-user.js";
import { requireStrings } from "../json-input.js";
import { isRecentFullSignIn, type RecentSignInParts } from "../sign-in/recent-sign-in.js";
import { refuseApiKeyOrActor } from "../sign-in/recent-sign-in-refusal.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import { passwordErrors } from "./password-errors.js";
import { checkPassword } from "./password-sign-in.js";

/** What checking the current password reads: the users, the hashing cost, the clock, factors. */
export interface CurrentPasswordParts extends RecentSignInParts {
  readonly users: UserStore;
  readonly passwords?: PasswordHashOptions | undefined;
}

/**
 * Whether a person changing a credential proved it is them: `confirmed`; `incorrect` for a
 * wrong (or missing) current password; `not-recent` when the rest of the proof is missing.
 */
export type CurrentPasswordJudgement = "confirmed" | "incorrect" | "not-recent";

/**
 * Judges the proof a credential change needs (a password change, an email change): a user with
 * a password gives it (`currentPassword`), which stands for a fresh first step, and still needs
 * a recent second factor when they have one; a user without a password has nothing to give and
 * needs a full sign-in of the last 10 minutes (see `isRecentFullSignIn`). `authentication` is
 * the token's or the session's sign-in.
 */
export async function judgeCurrentPassword(
  parts: CurrentPasswordParts,
  user: User,
  authentication: SignInAuthentication | undefined,
  currentPassword: string | undefined,
): Promise<CurrentPasswordJudgement> {
  const withPassword = user.passwordDigest !== "";
  if (withPassword) {
    const options = {
      clock: parts.clock,
      ...(parts.passwords ? { passwords: parts.passwords } : {}),
    };
    const given = currentPassword ?? "";
    if (!(await checkPassword(parts.users, user, given, options))) return "incorrect";
  }
  const confirmed = { passwordConfirmed: withPassword };
  return (await isRecentFullSignIn(parts, user, authentication, confirmed))
    ? "confirmed"
    : "not-recent";
}

/**
 * The JSON side of {@link judgeCurrentPassword}, for a body with `current_password`: undefined
 * when the bearer may change the credential, else the answer: 403 `api_key_not_allowed` for an
 * API key, 400 for a `current_password` that is missing (from a user with a password) or not
 * text, 403 `invalid_credentials` (`The password is incorrect.`) for a wrong one, 403
 * `reauthentication_required` without the recent sign-in the rest of the proof needs.
 */
export async function refuseWithoutCurrentPassword(
  parts: CurrentPasswordParts,
  context: RouteContext & BearerUserContext,
  body: Record<string, unknown>,
): Promise<Response | undefined> {
  const apiKey = refuseApiKeyOrActor(context);
  if (apiKey) return apiKey;
  const { user, locale } = context;
  let currentPassword: string | undefined;
  // A user without a password may leave it out; whatever they send then is not looked at.
  if (user.passwordDigest !== "") {
    const field = requireStrings(body, ["current_password"], { hashedOnly: ["current_password"] });
    if (!field.ok) return badRequest(field.message);
    currentPassword = field.value.current_password;
  }
  const judgement = await judgeCurrentPassword(
    parts,
    user,
    context.caller.authentication,
    currentPassword,
  );
  if (judgement === "confirmed") return undefined;
  const refusal =
    judgement === "incorrect"
      ? passwordErrors.passwordIncorrect
      : signInErrors.reauthenticationRequired;
  return accountErrorAnswer(refusal, locale);
}
