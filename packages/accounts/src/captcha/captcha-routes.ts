import { html } from "@tessera/core";
import {
  composeMiddleware,
  crossSiteCheck,
  crossSiteRefusalPage,
  htmlPage,
  type Layout,
  type Route,
  type RouteHandler,
  withMiddleware,
} from "@tessera/http";
import {
  type HtmlRouteContext,
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageHeaders,
  pageSafety,
} from "@tessera/session";
import { accountPageContext, currentPageUser } from "../html/account-page-context.js";
import { accountPage, accountText, pageLink } from "../html/form-page-kit.js";
import type { UserStore } from "../users/user-store.js";
import { jsonCaptchaCheck, pageCaptchaCheck } from "./captcha-middleware.js";
import type { CaptchaProviderName } from "./captcha-providers.js";
import type { CaptchaVerifier } from "./captcha-verifier.js";

/**
 * The JSON routes a captcha protects: sign-up, the password token and the emailed code's
 * request. Their clients send `captcha_token` in the body.
 */
export const CAPTCHA_JSON_ROUTES: readonly string[] = [
  "POST /api/auth/signup",
  "POST /api/auth/token",
  "POST /api/auth/email_code",
];

/**
 * The form posts a captcha protects (sign-up, login, the sign-in link, the password reset and
 * the confirmation mail's requests), each with the page its refusal links back to.
 */
export const CAPTCHA_PAGE_ROUTES: Readonly<Record<string, string>> = {
  "POST /signup": "/signup",
  "POST /login": "/login",
  "POST /magic_link": "/magic_link",
  "POST /passwords": "/passwords/new",
  "POST /confirmations": "/account",
};

/** What {@link withCaptcha} needs: the verifier, and what the refusal page is written with. */
export interface CaptchaRoutesOptions extends HtmlRouteSafety {
  readonly verify: CaptchaVerifier;
  readonly provider: CaptchaProviderName;
  /** Finds the signed-in user the refusal page's layout names. */
  readonly users: UserStore;
  /** The frame of the refusal page. */
  readonly layout: Layout;
}

/** The 400 page of a refused captcha, with a link back to the form. */
function refusalPage(
  options: CaptchaRoutesOptions,
  backTo: string,
): RouteHandler<HtmlRouteContext> {
  return async (_request, context) => {
    const user = await currentPageUser(context, options.users);
    const text = accountText(context.locale);
    const title = text("accounts.captcha_failed_title");
    const main = html`<p role="alert">${text("accounts.captcha_failed")}</p>
${pageLink(backTo, text("accounts.captcha_try_again"))}`;
    return htmlPage(
      400,
      accountPage(options.layout, accountPageContext(context, user), title, main),
    );
  };
}

/**
 * `routes` with the captcha checked first on the ones it protects ({@link CAPTCHA_JSON_ROUTES},
 * {@link CAPTCHA_PAGE_ROUTES}); every other route is handed back as it is. A refused JSON
 * request is 400 `captcha_failed`; a refused form post is a 400 page, with the pages' headers
 * and session, linking back to the form. `accountRoutes` applies it when given `captcha`.
 */
export function withCaptcha(
  routes: readonly Route<MaybeSessionContext>[],
  options: CaptchaRoutesOptions,
): Route<MaybeSessionContext>[] {
  const jsonCheck = jsonCaptchaCheck(options.verify);
  const pageCrossSite = composeMiddleware(
    pageHeaders<MaybeSessionContext>(options.pageHeaders ?? {}),
    crossSiteCheck({ allowedOrigins: options.allowedOrigins ?? [], refusal: crossSiteRefusalPage }),
  );
  return routes.map((route) => {
    const key = `${route.method} ${route.path}`;
    if (CAPTCHA_JSON_ROUTES.includes(key))
      return withMiddleware([route], jsonCheck)[0] as Route<MaybeSessionContext>;
    if (!Object.hasOwn(CAPTCHA_PAGE_ROUTES, key)) return route;
    const backTo = CAPTCHA_PAGE_ROUTES[key] as string;
    // The refusal is a page like the route's own: its headers, cross-site check and session.
    const [refusal] = withMiddleware(
      [{ method: route.method, path: route.path, handle: refusalPage(options, backTo) }],
      pageSafety(options),
    ) as [Route<MaybeSessionContext>];
    const check = pageCaptchaCheck<MaybeSessionContext>(
      options.verify,
      options.provider,
      (request, context) => refusal.handle(request, context),
    );
    // A cross-site post is refused before the provider is asked: a forged form never costs a
    // verification. (The route's own pageSafety checks it again, at the cost of a header read.)
    return withMiddleware([route], pageCrossSite, check)[0] as Route<MaybeSessionContext>;
  });
}
