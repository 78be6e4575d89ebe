import {
  type PassThroughMiddleware,
  type RouteContext,
  type RouteMiddleware,
  type RouteRefusal,
  readFormBody,
  readJsonBody,
} from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import { captchaErrors } from "./captcha-errors.js";
import { CAPTCHA_PROVIDERS, type CaptchaProviderName } from "./captcha-providers.js";
import type { CaptchaVerdict, CaptchaVerifier } from "./captcha-verifier.js";

/** The JSON body field a client sends the captcha's token in. */
export const CAPTCHA_TOKEN_FIELD = "captcha_token";

/**
 * A middleware refusing a JSON request whose `captcha_token` the provider does not accept,
 * with 400 `captcha_failed`, before the handler runs. The body is read from a copy of the
 * request (the handler still reads it) by the routes' own JSON reader, with its size cap: a
 * body it refuses is answered with the reader's 400, as the handler would answer it.
 */
export function jsonCaptchaCheck(verify: CaptchaVerifier): PassThroughMiddleware {
  return (next) => async (request, context) => {
    const body = await readJsonBody(request.clone());
    if (!body.ok) return body.response;
    const token = Object.hasOwn(body.value, CAPTCHA_TOKEN_FIELD)
      ? body.value[CAPTCHA_TOKEN_FIELD]
      : undefined;
    const verdict = await verify(
      typeof token === "string" ? token : undefined,
      context.clientAddress,
    );
    if (verdict.ok) return next(request, context);
    return accountErrorAnswer(captchaErrors.captchaFailed, context.locale);
  };
}

/**
 * A middleware refusing a form post whose widget token (`cf-turnstile-response`,
 * `h-captcha-response`) the provider does not accept, answered by `refusal` (a page), before
 * the handler runs. The form is read from a copy of the request by the pages' form reader, with
 * its size cap; a body it cannot read holds no token, so it is refused too.
 */
export function pageCaptchaCheck<C extends RouteContext>(
  verify: CaptchaVerifier,
  provider: CaptchaProviderName,
  refusal: RouteRefusal<C, CaptchaVerdict>,
): RouteMiddleware<C, C> {
  const field = CAPTCHA_PROVIDERS[provider].formField;
  return (next) => async (request, context) => {
    const form = await readFormBody(request.clone());
    const token = form.ok ? (form.value.get(field) ?? undefined) : undefined;
    const verdict = await verify(token, context.clientAddress);
    return verdict.ok ? next(request, context) : refusal(request, context, verdict);
  };
}
