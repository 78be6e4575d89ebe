import { localizeFieldMessages } from "@tessera/core";
import {
  badRequest,
  JSON_BODY_FAILURE_PREFIX,
  jsonAnswer,
  notFound,
  pathId,
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
import { passwordErrors } from "../password/password-errors.js";
import { recentSignInRequired } from "../sign-in/recent-sign-in-refusal.js";
import { grantTokenSignIn, tokenGrantParts } from "../sign-in/sign-in-grant.js";
import { passkeyAuthenticationOptions, verifyPasskeyAssertion } from "./passkey-authentication.js";
import { passkeyErrors } from "./passkey-errors.js";
import { checkPasskeyName, DEFAULT_PASSKEY_NAME } from "./passkey-name.js";
import { passkeyRegistrationOptions, registerPasskey } from "./passkey-registration.js";
import type { Passkey } from "./passkey-store.js";
import type { Passkeys } from "./passkeys.js";

/** What the passkey routes are built from: the JSON account routes' parts and the passkeys. */
export interface JsonPasskeyRoutesOptions
  extends Omit<JsonAccountRoutesOptions, "operatorColumns"> {
  readonly passkeys: Passkeys;
}

type BearerContext = RouteContext & BearerUserContext;

/** A passkey as the routes show it: never its public key or counter. */
function passkeyJson(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: new Date(passkey.createdAt).toISOString(),
    last_used_at: passkey.lastUsedAt === null ? null : new Date(passkey.lastUsedAt).toISOString(),
  };
}

/**
 * The JSON routes of passkeys (WebAuthn):
 * - `POST /api/auth/passkeys/options` (bearer): creation options for a new passkey; this route,
 *   adding and removing need a token of a recent, full sign-in (else 403
 *   `reauthentication_required`; an API key: 403 `api_key_not_allowed`);
 * - `POST /api/auth/passkeys` (bearer) `{name?, response}`: 201 `{id, name, created_at}`, 400
 *   `passkey_invalid` for a response that does not verify or answers no live challenge;
 * - `GET /api/auth/passkeys`, `DELETE /api/auth/passkeys/{id}` (bearer): list, remove (204, 404);
 * - `POST /api/auth/passkeys/login/options` `{}`: `{options, challenge_id}`;
 * - `POST /api/auth/passkeys/login` `{challenge_id, response}`: the body of `POST /api/auth/token`,
 *   or 401 for any failed assertion. Every route is rate limited per client.
 */
export function jsonPasskeyRoutes(options: JsonPasskeyRoutesOptions): Route[] {
  const { passkeys } = options;
  const events = options.events ?? accountEvents();
  const grant = tokenGrantParts(options, events);
  const refuseCredentials = (context: RouteContext) =>
    accountErrorAnswer(passwordErrors.invalidCredentials, context.locale);

  const bearerHandlers = {
    async options(_request, { user, locale }) {
      return jsonAnswer(await passkeyRegistrationOptions(passkeys, user), { locale });
    },

    async register(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const typedName = Object.hasOwn(body.value, "name") ? body.value.name : undefined;
      let name = DEFAULT_PASSKEY_NAME;
      if (typedName !== undefined && typedName !== null) {
        const field = requireStrings(body.value, ["name"]);
        if (!field.ok) return badRequest(field.message);
        const checked = checkPasskeyName(field.value.name);
        if (!checked.ok) {
          const { locale } = context;
          return validationFailed(localizeFieldMessages(checked.fields, locale), locale);
        }
        name = checked.value;
      }
      if (!Object.hasOwn(body.value, "response")) {
        return badRequest(`${JSON_BODY_FAILURE_PREFIX}missing field \`response\``);
      }
      const registered = await registerPasskey(
        passkeys,
        context.user.id,
        body.value.response,
        name,
      );
      if (!registered.ok) return accountErrorAnswer(passkeyErrors.passkeyInvalid, context.locale);
      await events.audited(
        "user.passkey_added",
        context.user.id,
        { ...context, request },
        {
          details: { passkey_id: registered.value.id, name: registered.value.name },
        },
      );
      const { id, name: storedName, created_at } = passkeyJson(registered.value);
      const answer = { id, name: storedName, created_at };
      return jsonAnswer(answer, { status: 201, locale: context.locale });
    },

    async list(_request, { user, locale }) {
      const listed = await passkeys.store.listPasskeys(user.id);
      return jsonAnswer(listed.map(passkeyJson), { locale });
    },

    async remove(request, context) {
      const { params, user, locale } = context;
      const id = pathId(params.id);
      const deleted = id !== undefined && (await passkeys.store.deletePasskey(user.id, id));
      if (!deleted) return notFound(locale);
      await events.audited(
        "user.passkey_removed",
        user.id,
        { ...context, request },
        {
          details: { passkey_id: id },
        },
      );
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<BearerContext>>;

  const signInHandlers = {
    async options(_request, { locale }) {
      const offered = await passkeyAuthenticationOptions(passkeys, { purpose: "sign_in" });
      // The challenge is also its handle: the client sends it back beside the response.
      return jsonAnswer({ options: offered, challenge_id: offered.challenge }, { locale });
    },

    async signIn(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const fields = requireStrings(body.value, ["challenge_id"]);
      if (!fields.ok) return badRequest(fields.message);
      const refresh = optionalBoolean(body.value, "refresh", false);
      if (!refresh.ok) return badRequest(refresh.message);
      const assertion = await verifyPasskeyAssertion(
        passkeys,
        body.value.response,
        { purpose: "sign_in" },
        fields.value.challenge_id,
      );
      const user = assertion.ok ? await options.users.findById(assertion.value.userId) : undefined;
      if (!assertion.ok || !user) return refuseCredentials(context);
      // A passkey that verified its user is both factors; one that only saw a touch is one.
      const proof = { method: "passkey", userVerified: assertion.value.userVerified } as const;
      return grantTokenSignIn(grant, user, proof, {
        request,
        clientAddress: context.clientAddress,
        locale: context.locale,
        refresh: refresh.value,
      });
    },
  } satisfies Record<string, RouteHandler>;

  // The bearer first: a request without one is a 401 and uses up none of the client's attempts.
  const limited = rateLimit<BearerContext>({ limiter: options.rateLimiter, group: "api_passkeys" });
  return [
    ...withMiddleware(
      [{ method: "GET", path: "/api/auth/passkeys", handle: bearerHandlers.list }],
      bearerUser(options.bearer),
      limited,
    ),
    // A passkey signs in: adding or removing one needs a recent, full sign-in, never an API key.
    ...withMiddleware(
      [
        { method: "POST", path: "/api/auth/passkeys/options", handle: bearerHandlers.options },
        { method: "POST", path: "/api/auth/passkeys", handle: bearerHandlers.register },
        { method: "DELETE", path: "/api/auth/passkeys/:id", handle: bearerHandlers.remove },
      ],
      bearerUser(options.bearer),
      limited,
      recentSignInRequired(grant),
    ),
    ...withMiddleware(
      [
        {
          method: "POST",
          path: "/api/auth/passkeys/login/options",
          handle: signInHandlers.options,
        },
        { method: "POST", path: "/api/auth/passkeys/login", handle: signInHandlers.signIn },
      ],
      rateLimit({ limiter: options.rateLimiter, group: "api_passkey_login" }),
    ),
  ];
}
