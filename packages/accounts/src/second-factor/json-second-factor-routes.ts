import { localizeFieldMessages, validationMessages } from "@tessera/core";
import {
  badRequest,
  jsonAnswer,
  NO_STORE,
  type Route,
  type RouteContext,
  type RouteHandler,
  rateLimit,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import { accountEvents } from "../account-hooks.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { optionalBoolean, requireStrings } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { passkeyErrors } from "../passkey/passkey-errors.js";
import { passwordErrors } from "../password/password-errors.js";
import { checkPassword } from "../password/password-sign-in.js";
import { accountThrottledAnswer } from "../sign-in/account-throttle.js";
import {
  refuseApiKeyOrActor,
  refuseWithoutRecentSignIn,
} from "../sign-in/recent-sign-in-refusal.js";
import { grantTokenSignIn, tokenGrantParts } from "../sign-in/sign-in-grant.js";
import { recordFailedSecondStep } from "./failed-second-step.js";
import { secondFactorErrors } from "./second-factor-errors.js";
import { completeSecondFactor, secondFactorPasskeyOptions } from "./second-factor-sign-in.js";
import type { SecondFactors } from "./second-factors.js";
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  regenerateBackupCodes,
} from "./totp-enrolment.js";

/** What the second-factor routes are built from: the JSON account routes' parts and the factors. */
export interface JsonSecondFactorRoutesOptions
  extends Omit<JsonAccountRoutesOptions, "operatorColumns"> {
  readonly secondFactors: SecondFactors;
}

type BearerContext = RouteContext & BearerUserContext;

/**
 * The JSON routes of TOTP and backup codes:
 * - `POST /api/auth/mfa/totp` `{password}`: 201 `{secret, uri, qr_svg}`, pending until confirmed;
 * - `POST /api/auth/mfa/totp/confirm` `{code}`: 200 `{backup_codes}` (ten, shown once);
 * - `DELETE /api/auth/mfa/totp` `{password}`: 204, TOTP and backup codes removed;
 * - `POST /api/auth/mfa/backup_codes` `{password}`: 200 ten new codes;
 * - `POST /api/auth/token/mfa` `{mfa_token, code}` or `{mfa_token, passkey}` (an
 *   AuthenticationResponseJSON): the body of `POST /api/auth/token`, or 401;
 * - `POST /api/auth/token/mfa/options` `{mfa_token}`: the WebAuthn request options for a passkey
 *   answer, 401 for a void `mfa_token`, 409 `no_passkey` when the user has no passkey.
 * A request that does not fit the state of the user's factors is a 409 with its own code
 * (`totp_already_enabled`, `totp_not_pending`, `totp_not_enabled`: see `secondFactorErrors`).
 * A wrong password is a 401 (`invalid_credentials`); an API key is refused (403
 * `api_key_not_allowed`) and, for a user with a second factor, the password needs a token of a
 * recent sign-in with it beside it (403 `reauthentication_required`). Every route is rate
 * limited per client, and the answers to a second step per account as well.
 */
export function jsonSecondFactorRoutes(options: JsonSecondFactorRoutesOptions): Route[] {
  const factors = options.secondFactors;
  const events = options.events ?? accountEvents();
  const grant = tokenGrantParts(options, events);
  const passwordOptions = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.passwords ? { passwords: options.passwords } : {}),
  };

  /**
   * The request's `password` checked against the bearer's, and the recent second factor of a
   * user who has one (the password is the fresh first step), or the answer refusing them. An
   * API key is refused before the password is read.
   */
  async function refusePassword(
    request: Request,
    context: BearerContext,
  ): Promise<Response | undefined> {
    const apiKey = refuseApiKeyOrActor(context);
    if (apiKey) return apiKey;
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const fields = requireStrings(body.value, ["password"], { hashedOnly: ["password"] });
    if (!fields.ok) return badRequest(fields.message);
    const { user } = context;
    if (await checkPassword(options.users, user, fields.value.password, passwordOptions)) {
      return refuseWithoutRecentSignIn(grant, context, { passwordConfirmed: true });
    }
    return accountErrorAnswer(passwordErrors.invalidCredentials, context.locale);
  }

  const bearerHandlers = {
    async beginTotp(request, context) {
      const refused = await refusePassword(request, context);
      if (refused) return refused;
      const setup = await beginTotpEnrolment(factors, context.user);
      if (!setup.ok) {
        return accountErrorAnswer(secondFactorErrors.totpAlreadyEnabled, context.locale);
      }
      const { secret, uri, qrSvg } = setup.value;
      return jsonAnswer(
        { secret, uri, qr_svg: qrSvg },
        { status: 201, locale: context.locale, headers: NO_STORE },
      );
    },

    async confirmTotp(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const fields = requireStrings(body.value, ["code"]);
      if (!fields.ok) return badRequest(fields.message);
      const confirmed = await confirmTotpEnrolment(factors, context.user.id, fields.value.code);
      if (confirmed.ok) {
        await events.audited("user.mfa_enabled", context.user.id, { ...context, request });
        const codes = { backup_codes: confirmed.value };
        return jsonAnswer(codes, { locale: context.locale, headers: NO_STORE });
      }
      if (confirmed.reason === "not-pending") {
        return accountErrorAnswer(secondFactorErrors.totpNotPending, context.locale);
      }
      const invalid = { code: [validationMessages.english["validation.invalid"]] };
      return validationFailed(localizeFieldMessages(invalid, context.locale), context.locale);
    },

    async disableTotp(request, context) {
      const refused = await refusePassword(request, context);
      if (refused) return refused;
      await factors.store.deleteTotp(context.user.id);
      await events.audited("user.mfa_disabled", context.user.id, { ...context, request });
      return new Response(null, { status: 204 });
    },

    async newBackupCodes(request, context) {
      const refused = await refusePassword(request, context);
      if (refused) return refused;
      const codes = await regenerateBackupCodes(factors, context.user.id);
      if (!codes.ok) return accountErrorAnswer(secondFactorErrors.totpNotEnabled, context.locale);
      await events.audited("user.backup_codes_regenerated", context.user.id, {
        ...context,
        request,
      });
      const answer = { backup_codes: codes.value };
      return jsonAnswer(answer, { locale: context.locale, headers: NO_STORE });
    },
  } satisfies Record<string, RouteHandler<BearerContext>>;

  const refuseCredentials = (context: RouteContext) =>
    accountErrorAnswer(passwordErrors.invalidCredentials, context.locale);

  const completeSignIn: RouteHandler = async (request, context) => {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    // A passkey's assertion (an object) or a typed code answers the challenge.
    const withPasskey = Object.hasOwn(body.value, "passkey");
    const fields = requireStrings(body.value, withPasskey ? ["mfa_token"] : ["mfa_token", "code"]);
    if (!fields.ok) return badRequest(fields.message);
    const refresh = optionalBoolean(body.value, "refresh", false);
    if (!refresh.ok) return badRequest(refresh.message);
    const answer = withPasskey
      ? { passkey: body.value.passkey }
      : { code: (fields.value as { code: string }).code };
    const completed = await completeSecondFactor(
      factors,
      fields.value.mfa_token,
      answer,
      options.throttle?.throttle,
    );
    if (!completed.ok) {
      await recordFailedSecondStep(events, completed, { ...context, request });
    }
    if (!completed.ok && completed.reason === "throttled") {
      return accountThrottledAnswer(completed.retryAfterSeconds, context.locale);
    }
    const user = completed.ok ? await options.users.findById(completed.value.userId) : undefined;
    if (!completed.ok || !user) return refuseCredentials(context);
    // A challenge stored before its first factor was kept (migration 0014) is announced as
    // `password`, as this route announced every one until then: which factor it followed is not
    // known, and a password is what most of them were.
    const method = completed.value.firstFactor ?? "password";
    const proof = { method, secondFactor: completed.value.factor };
    return grantTokenSignIn(grant, user, proof, {
      request,
      clientAddress: context.clientAddress,
      locale: context.locale,
      refresh: refresh.value,
    });
  };

  const passkeyOptions: RouteHandler = async (request, context) => {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const fields = requireStrings(body.value, ["mfa_token"]);
    if (!fields.ok) return badRequest(fields.message);
    const offered = await secondFactorPasskeyOptions(factors, fields.value.mfa_token);
    if (offered.ok) return jsonAnswer(offered.value, { locale: context.locale });
    if (offered.reason === "void") return refuseCredentials(context);
    return accountErrorAnswer(passkeyErrors.noPasskey, context.locale);
  };

  const signedIn = bearerUser(options.bearer);
  // The bearer first: a request without one is a 401 and uses up none of the client's attempts.
  const limited = rateLimit<BearerContext>({ limiter: options.rateLimiter, group: "api_mfa" });
  return [
    ...withMiddleware(
      [
        { method: "POST", path: "/api/auth/mfa/totp", handle: bearerHandlers.beginTotp },
        { method: "POST", path: "/api/auth/mfa/totp/confirm", handle: bearerHandlers.confirmTotp },
        { method: "DELETE", path: "/api/auth/mfa/totp", handle: bearerHandlers.disableTotp },
        {
          method: "POST",
          path: "/api/auth/mfa/backup_codes",
          handle: bearerHandlers.newBackupCodes,
        },
      ],
      signedIn,
      limited,
    ),
    ...withMiddleware(
      [
        { method: "POST", path: "/api/auth/token/mfa", handle: completeSignIn },
        { method: "POST", path: "/api/auth/token/mfa/options", handle: passkeyOptions },
      ],
      rateLimit({ limiter: options.rateLimiter, group: "api_token_mfa" }),
    ),
  ];
}
