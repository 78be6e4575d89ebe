import { fullMessage, localizeFieldMessages } from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import {
  htmlPage,
  jsonAnswer,
  NO_STORE,
  pathId,
  type Route,
  type RouteHandler,
  readJsonBody,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { accountErrorAnswer } from "../account-errors.js";
import { accountMessages } from "../account-messages.js";
import { readAccountForm } from "../html/account-form.js";
import { accountPageContext, flashAccountMessage } from "../html/account-page-context.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type { HtmlAccountRoutesOptions, SignedInContext } from "../html/html-routes-options.js";
import { pageRateLimit } from "../html/page-rate-limits.js";
import { isRecentPageSignIn, signedInPage } from "../html/signed-in-page.js";
import { passkeyErrors } from "../passkey/passkey-errors.js";
import { checkPasskeyName, DEFAULT_PASSKEY_NAME } from "../passkey/passkey-name.js";
import { passkeyRegistrationOptions, registerPasskey } from "../passkey/passkey-registration.js";
import { checkPassword } from "../password/password-sign-in.js";
import { rememberSessionAuthentication } from "../sign-in/session-authentication.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import type { SignInFactor } from "../sign-in/sign-in-factors.js";
import {
  completeSecondFactor,
  hasSecondFactor,
  startSecondFactor,
} from "./second-factor-sign-in.js";
import { SECURITY_PATH, type SecurityPages, type SecurityView } from "./security-page.js";
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  pendingTotpSetup,
  regenerateBackupCodes,
} from "./totp-enrolment.js";

/** What the security page is built from: the HTML account routes' options and what it manages. */
export interface HtmlSecurityRoutesOptions extends HtmlAccountRoutesOptions {
  readonly securityPages: SecurityPages;
}

/**
 * `/account/security` for a signed-in user: TOTP (turn on with the password, confirm with a
 * code, backup codes shown once, new ones and turning off with the password again) and passkeys
 * (list, add through the page's script, rename, remove). Changes are scoped to the user in the
 * query; the password and passkey routes are rate limited per client.
 */
export function htmlSecurityRoutes(
  options: HtmlSecurityRoutesOptions,
): Route<MaybeSessionContext>[] {
  const parts = htmlAccountParts(options);
  const factors = options.secondFactors;
  const passkeys = options.passkeys;

  /** The page for `user` as it stands, with what this answer adds (a setup, codes, an error). */
  async function page(
    context: SignedInContext,
    extra: Pick<SecurityView, "setup" | "backupCodes" | "error"> = {},
    status = 200,
  ): Promise<Response> {
    const { user } = context;
    const reauthenticate = (await isRecentPageSignIn(parts, context, user))
      ? undefined
      : { password: user.passwordDigest !== "", code: await hasSecondFactor(factors, user.id) };
    const enrolment = factors && (await factors.store.findTotp(user.id));
    const totp = !factors
      ? undefined
      : enrolment?.confirmedAt != null
        ? "on"
        : enrolment
          ? "pending"
          : "off";
    const view: SecurityView = {
      context: accountPageContext(context, user),
      totp,
      backupCodesLeft: totp === "on" && factors ? await factors.store.countBackupCodes(user.id) : 0,
      passkeys: passkeys ? await passkeys.store.listPasskeys(user.id) : undefined,
      reauthenticate,
      ...extra,
    };
    // It may show a TOTP key or backup codes, once: no copy in any cache.
    return htmlPage(status, options.securityPages.security(view), NO_STORE);
  }

  /**
   * The page refusing a change (403) while the sign-in is not a recent, full one; undefined
   * when it is. `passwordConfirmed`: the form carried the right password, a fresh first step.
   */
  async function refusedAsStale(
    context: SignedInContext,
    confirmed: { readonly passwordConfirmed?: boolean | undefined } = {},
  ): Promise<Response | undefined> {
    if (await isRecentPageSignIn(parts, context, context.user, confirmed)) return undefined;
    const error = accountMessages.text(context.locale, "accounts.reauthentication_required");
    return page(context, { error }, 403);
  }

  /**
   * The form's password checked again, and a recent second factor for a user who has one, or
   * the page that refuses them (422, 403).
   */
  async function refusedPassword(
    request: Request,
    context: SignedInContext,
  ): Promise<Response | undefined> {
    const form = await readAccountForm(request, context, options);
    if (!form.ok) return form.response;
    const password = form.value.get("password") ?? "";
    if (await checkPassword(options.users, context.user, password, parts.passwordOptions)) {
      return refusedAsStale(context, { passwordConfirmed: true });
    }
    const error = accountMessages.text(context.locale, "accounts.password_incorrect");
    return page(context, { error }, 422);
  }

  /** The JSON 403 of the page script's passkey steps while the sign-in is not recent and full. */
  async function refusedJsonAsStale(context: SignedInContext): Promise<Response | undefined> {
    if (await isRecentPageSignIn(parts, context, context.user)) return undefined;
    return accountErrorAnswer(signInErrors.reauthenticationRequired, context.locale);
  }

  const handlers = {
    show: (_request, context) => page(context),

    async beginTotp(request, context) {
      const refused = await refusedPassword(request, context);
      if (refused || !factors) return refused ?? seeOther(SECURITY_PATH);
      const setup = await beginTotpEnrolment(factors, context.user);
      if (!setup.ok) return seeOther(SECURITY_PATH);
      return page(context, { setup: { secret: setup.value.secret, qrSvg: setup.value.qrSvg } });
    },

    async confirmTotp(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok || !factors) return form.ok ? seeOther(SECURITY_PATH) : form.response;
      const confirmed = await confirmTotpEnrolment(
        factors,
        context.user.id,
        form.value.get("code") ?? "",
      );
      if (confirmed.ok) {
        await parts.events.audited("user.mfa_enabled", context.user.id, { ...context, request });
        flashAccountMessage(context, "notice", "accounts.security.totp_enabled");
        return page(context, { backupCodes: confirmed.value });
      }
      if (confirmed.reason === "not-pending") return seeOther(SECURITY_PATH);
      // The same key is shown again, so the person can try the app's next code.
      const setup = await pendingTotpSetup(factors, context.user);
      const error = accountMessages.text(context.locale, "accounts.second_factor.invalid");
      return page(context, setup ? { setup, error } : { error }, 422);
    },

    async disableTotp(request, context) {
      const refused = await refusedPassword(request, context);
      if (refused) return refused;
      if (factors) {
        await factors.store.deleteTotp(context.user.id);
        await parts.events.audited("user.mfa_disabled", context.user.id, { ...context, request });
      }
      flashAccountMessage(context, "notice", "accounts.security.totp_disabled");
      return seeOther(SECURITY_PATH);
    },

    async newBackupCodes(request, context) {
      const refused = await refusedPassword(request, context);
      if (refused || !factors) return refused ?? seeOther(SECURITY_PATH);
      const codes = await regenerateBackupCodes(factors, context.user.id);
      if (!codes.ok) return seeOther(SECURITY_PATH);
      const at = { ...context, request };
      await parts.events.audited("user.backup_codes_regenerated", context.user.id, at);
      return page(context, { backupCodes: codes.value });
    },

    async reauthenticate(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const { user, locale } = context;
      const password = form.value.get("password") ?? "";
      if (!(await checkPassword(options.users, user, password, parts.passwordOptions))) {
        // A user without a password signs in again: checkPassword refuses them too.
        const error = accountMessages.text(locale, "accounts.password_incorrect");
        return page(context, { error }, 422);
      }
      const confirmedWith: SignInFactor[] = ["password"];
      if (factors && (await hasSecondFactor(factors, user.id))) {
        // The code answers a challenge of its own, so its per-account limit and count apply.
        const challenge = await startSecondFactor(factors, user.id, "password");
        const answer = { code: form.value.get("code") ?? "" };
        const passed =
          challenge &&
          (await completeSecondFactor(
            factors,
            challenge.mfaToken,
            answer,
            options.throttle?.throttle,
          ));
        if (!passed?.ok) {
          // This challenge served one answer: a wrong one leaves no row behind.
          if (challenge) await factors.store.consumeChallenge(sha256Hex(challenge.mfaToken));
          const error = accountMessages.text(locale, "accounts.second_factor.invalid");
          return page(context, { error }, 422);
        }
        confirmedWith.push(passed.value.factor);
      }
      rememberSessionAuthentication(context.session, { at: parts.clock(), factors: confirmedWith });
      flashAccountMessage(context, "notice", "accounts.security.reauthenticated");
      return seeOther(SECURITY_PATH);
    },

    async passkeyOptions(_request, context) {
      if (!passkeys) return seeOther(SECURITY_PATH);
      const stale = await refusedJsonAsStale(context);
      if (stale) return stale;
      const offered = await passkeyRegistrationOptions(passkeys, context.user);
      return jsonAnswer(offered, { locale: context.locale });
    },

    async addPasskey(request, context) {
      if (!passkeys) return seeOther(SECURITY_PATH);
      const stale = await refusedJsonAsStale(context);
      if (stale) return stale;
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const typed = typeof body.value.name === "string" ? body.value.name : "";
      const name = checkPasskeyName(typed);
      const registered = await registerPasskey(
        passkeys,
        context.user.id,
        body.value.response,
        name.ok ? name.value : DEFAULT_PASSKEY_NAME,
      );
      if (!registered.ok) {
        return accountErrorAnswer(passkeyErrors.passkeyInvalid, context.locale);
      }
      await parts.events.audited(
        "user.passkey_added",
        context.user.id,
        { ...context, request },
        {
          details: { passkey_id: registered.value.id, name: registered.value.name },
        },
      );
      flashAccountMessage(context, "notice", "accounts.security.passkey_added");
      const added = { id: registered.value.id, name: registered.value.name };
      return jsonAnswer(added, { status: 201, locale: context.locale });
    },

    async renamePasskey(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const id = pathId(context.params.id);
      const name = checkPasskeyName(form.value.get("name") ?? "");
      if (!name.ok) {
        // "Name can't be blank": the field's name, then its message, in the page's language.
        const { locale } = context;
        const label = accountMessages.text(locale, "accounts.security.passkey_name");
        const messages = localizeFieldMessages(name.fields, locale).name ?? [];
        const error = messages.map((message) => fullMessage(label, message, locale)).join(" ");
        return page(context, { error }, 422);
      }
      const renamed =
        passkeys &&
        id !== undefined &&
        (await passkeys.store.renamePasskey(context.user.id, id, name.value));
      if (renamed) flashAccountMessage(context, "notice", "accounts.security.passkey_renamed");
      return seeOther(SECURITY_PATH);
    },

    async removePasskey(request, context) {
      const stale = await refusedAsStale(context);
      if (stale) return stale;
      const id = pathId(context.params.id);
      const removed =
        passkeys && id !== undefined && (await passkeys.store.deletePasskey(context.user.id, id));
      if (removed) {
        await parts.events.audited(
          "user.passkey_removed",
          context.user.id,
          { ...context, request },
          {
            details: { passkey_id: id },
          },
        );
        flashAccountMessage(context, "notice", "accounts.security.passkey_removed");
      }
      return seeOther(SECURITY_PATH);
    },
  } satisfies Record<string, RouteHandler<SignedInContext>>;

  // Signed in first: a stranger is sent to sign in without using up the client's attempts.
  const limited = pageRateLimit<SignedInContext>(options, "account_security");
  return withMiddleware(
    [
      ...withMiddleware(
        [{ method: "GET", path: SECURITY_PATH, handle: handlers.show }],
        signedInPage(options.users),
      ),
      ...withMiddleware(
        [
          {
            method: "POST",
            path: `${SECURITY_PATH}/reauthenticate`,
            handle: handlers.reauthenticate,
          },
          { method: "POST", path: `${SECURITY_PATH}/totp`, handle: handlers.beginTotp },
          { method: "POST", path: `${SECURITY_PATH}/totp/confirm`, handle: handlers.confirmTotp },
          { method: "POST", path: `${SECURITY_PATH}/totp/delete`, handle: handlers.disableTotp },
          {
            method: "POST",
            path: `${SECURITY_PATH}/backup_codes`,
            handle: handlers.newBackupCodes,
          },
          {
            method: "POST",
            path: `${SECURITY_PATH}/passkeys/options`,
            handle: handlers.passkeyOptions,
          },
          { method: "POST", path: `${SECURITY_PATH}/passkeys`, handle: handlers.addPasskey },
          { method: "POST", path: `${SECURITY_PATH}/passkeys/:id`, handle: handlers.renamePasskey },
          {
            method: "POST",
            path: `${SECURITY_PATH}/passkeys/:id/delete`,
            handle: handlers.removePasskey,
          },
        ],
        signedInPage(options.users),
        limited,
      ),
    ],
    pageSafety(options),
  );
}
