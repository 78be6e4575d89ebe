import { html, type Locale, type SafeHtml, unsafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { httpMessages } from "@tessera/http";
import type { AccountMessageId } from "../account-messages.js";
import { type CaptchaWidget, captchaWidgetHtml } from "../captcha/captcha-widget.js";
import type { FieldErrors } from "../messages.js";
import { pageScriptTags } from "../passkey/page-scripts.js";
import { checkboxInput, labelledInput } from "./form-fields.js";
import {
  accountErrorSummary,
  accountPage,
  accountText,
  errorAlert,
  pageLink,
  postForm,
} from "./form-page-kit.js";

/** The account pages' HTML. `defaultAccountPages(layout)` gives ours; replace any you like. */
export interface AccountPages {
  signup(view: { context: PageContext; email: string; errors: FieldErrors }): string;
  login(view: {
    context: PageContext;
    email: string;
    error: string | undefined;
    /** Offer sign-in links and password reset: false when the app sends no mail. */
    emailLinks: boolean;
    /** Offer "Sign in with a passkey" and the browser's passkey autofill (passkeys on). */
    passkeySignIn?: boolean | undefined;
  }): string;
  /** The second step of a sign-in: a TOTP or backup code, or a passkey when `passkey`. */
  secondFactor(view: {
    context: PageContext;
    error: string | undefined;
    /** The waiting user has a passkey: offer "Use a passkey". */
    passkey?: boolean | undefined;
  }): string;
  account(view: {
    context: PageContext;
    email: string;
    memberSince: string;
    confirmed: boolean;
    /** Offer a new confirmation link: false when the app sends no mail. */
    emailLinks: boolean;
    /** Mails are delivered, so sign-up sent a confirmation link the page may mention. */
    confirmationMailSent: boolean;
    /** The deletion confirmation asks for the password, or the email for users without one. */
    deletionField: "password" | "email";
    deletionError: string | undefined;
    /** Link to the list of signed-in devices (tracked sessions on). */
    showDevices: boolean;
    /** Link to `/account/security` (second factors or passkeys on). */
    showSecurity?: boolean | undefined;
    /** Links `/account/activity` (the audit trail is on). */
    showActivity?: boolean | undefined;
    /** The profile's fields and their values (the operator columns sign-up accepts). */
    profile?: readonly ProfileField[] | undefined;
    /** Link to `/account/email` (email changes on, with a mailer). */
    showEmailChange?: boolean | undefined;
  }): string;
  magicLinkRequest(view: { context: PageContext }): string;
  magicLinkConfirm(view: { context: PageContext; token: string }): string;
  passwordResetRequest(view: { context: PageContext }): string;
  newPassword(view: {
    context: PageContext;
    token: string;
    errors: FieldErrors;
    /** Show the "sign out of all other sessions" choice (tracked sessions on). */
    offerSignOutEverywhere: boolean;
  }): string;
  confirmationConfirm(view: { context: PageContext; token: string }): string;
  tooManyRequests(view: { context: PageContext }): string;
  /** A form the server could not read (not urlencoded, or over its size cap): says which. */
  unreadableForm(view: { context: PageContext; title: string; message: string }): string;
}

/** A field of the profile form on `/account`: its input name, label and current value. */
export interface ProfileField {
  readonly name: string;
  readonly label: string;
  readonly value: string;
}

/** The profile form of `/account`, posted to `/account/profile`; nothing without fields. */
function profileForm(context: PageContext, profile: readonly ProfileField[]): SafeHtml {
  if (profile.length === 0) return html``;
  const inputs = profile.map((field) =>
    labelledInput({
      name: field.name,
      label: field.label,
      type: "text",
      autocomplete: field.name === "name" ? "name" : "off",
      value: field.value,
      required: false,
    }),
  );
  const save = accountText(context.locale)("accounts.profile.save");
  return html`${postForm("/account/profile", inputs, save)}\n`;
}

/** A page of one short form: a title, a sentence, the form's inputs (if any) and its button. */
function oneFormPage(
  layout: Layout,
  context: PageContext,
  page: {
    readonly title: AccountMessageId;
    readonly intro: AccountMessageId;
    readonly action: string;
    readonly submit: AccountMessageId;
    readonly withEmailInput?: boolean | undefined;
    /** The captcha widget, inside the form (the mail requests a captcha protects). */
    readonly captcha?: CaptchaWidget | undefined;
  },
): string {
  const text = accountText(context.locale);
  const title = text(page.title);
  const withEmail = page.withEmailInput === true;
  const inputs = [
    ...(withEmail ? [emailInput(context.locale)] : []),
    ...(page.captcha ? [captchaWidgetHtml(page.captcha, context.cspNonce)] : []),
  ];
  return accountPage(
    layout,
    context,
    title,
    html`<p>${text(page.intro)}</p>
${postForm(page.action, inputs, text(page.submit))}${withEmail && html`\n${pageLink("/login", text("accounts.back_to_login"))}`}`,
  );
}

function emailInput(locale: Locale | undefined): SafeHtml {
  return labelledInput({
    name: "email",
    label: accountText(locale)("accounts.field.email"),
    type: "email",
    autocomplete: "email",
  });
}

/** Options of {@link defaultAccountPages}. */
export interface DefaultAccountPagesOptions {
  /**
   * Trusted HTML shown on the login page under the form: the sign-in provider buttons
   * (`renderProviderButtons` of @tessera/oauth) when OAuth is on. A function is given the
   * page's locale, so the buttons can be written in it.
   */
  readonly loginExtrasHtml?: string | ((locale: Locale | undefined) => string) | undefined;
  /**
   * The passkey buttons' browser code, as script URLs the app serves: `@simplewebauthn/browser`'s
   * UMD bundle, then a script that wires the buttons (the example app's `public/passkeys.js`).
   * Without them the pages offer no passkey button.
   */
  readonly passkeyScripts?: readonly string[] | undefined;
  /**
   * The captcha widget of the forms it protects (sign-up, login, the sign-in link and password
   * reset requests, the confirmation mail's resend): give the same provider and site key as
   * `accountRoutes`' `captcha`, whose check refuses a form posted without a token.
   */
  readonly captcha?: CaptchaWidget | undefined;
}

/** Our account pages: semantic, accessible HTML in the app's layout, in the page's locale. */
export function defaultAccountPages(
  layout: Layout,
  options: DefaultAccountPagesOptions = {},
): AccountPages {
  const passkeyScripts = options.passkeyScripts ?? [];
  const { captcha } = options;
  const captchaInputs = (context: PageContext) =>
    captcha ? [captchaWidgetHtml(captcha, context.cspNonce)] : [];
  // Both work through the page's script (WebAuthn is a browser API), which these tags load.
  const passkeySignInButton = (context: PageContext) => html`<div class="passkey-sign-in">
<button type="button" data-passkey-login data-options-url="/login/passkey/options" data-action="/login/passkey">${accountText(context.locale)("accounts.login.passkey")}</button>
<p class="passkey-error" role="alert" hidden></p>
</div>
${pageScriptTags(passkeyScripts, context.cspNonce)}
`;
  const passkeySecondFactorForm = (
    context: PageContext,
  ) => html`<form method="post" action="/login/second_factor" data-passkey-second-factor data-options-url="/login/second_factor/passkey/options">
<input type="hidden" name="passkey" value="">
<p class="passkey-error" role="alert" hidden></p>
<button type="submit">${accountText(context.locale)("accounts.second_factor.passkey")}</button>
</form>
${pageScriptTags(passkeyScripts, context.cspNonce)}
`;
  const loginExtras = (context: PageContext): SafeHtml => {
    const extras = options.loginExtrasHtml;
    const markup = typeof extras === "function" ? extras(context.locale) : extras;
    if (!markup) return html``;
    const label = accountText(context.locale)("accounts.login.other_ways");
    // The app's own markup, documented as trusted (the OAuth provider buttons it rendered).
    return html`<section class="providers" aria-label="${label}">\n${unsafeHtml(markup)}\n</section>\n`;
  };
  return {
    signup: ({ context, email, errors }) => {
      const { locale } = context;
      const text = accountText(locale);
      const title = text("accounts.signup.title");
      const inputs = [
        labelledInput({
          name: "email",
          label: text("accounts.field.email"),
          type: "email",
          autocomplete: "email",
          value: email,
          errors: errors.email ?? [],
          locale,
        }),
        labelledInput({
          name: "password",
          label: text("accounts.signup.password_label"),
          type: "password",
          autocomplete: "new-password",
          errors: errors.password ?? [],
          locale,
        }),
        ...captchaInputs(context),
      ];
      return accountPage(
        layout,
        context,
        title,
        html`${accountErrorSummary(errors, locale)}
${postForm("/signup", inputs, title)}
<p>${text("accounts.signup.have_account")} <a href="/login">${text("accounts.login.title")}</a></p>`,
      );
    },

    login: ({ context, email, error, emailLinks, passkeySignIn }) => {
      const withPasskey = passkeySignIn === true && passkeyScripts.length > 0;
      const text = accountText(context.locale);
      const title = text("accounts.login.title");
      const inputs = [
        labelledInput({
          name: "email",
          label: text("accounts.field.email"),
          type: "email",
          // The browser's own passkey autofill (conditional UI) offers passkeys in this field.
          autocomplete: withPasskey ? "username webauthn" : "email",
          value: email,
        }),
        labelledInput({
          name: "password",
          label: text("accounts.field.password"),
          type: "password",
          autocomplete: "current-password",
        }),
        checkboxInput("remember_me", text("accounts.login.remember_me"), false),
        ...captchaInputs(context),
      ];
      const emailLinkOffers =
        emailLinks &&
        html`<p><a href="/magic_link">${text("accounts.magic_link.request_button")}</a> · <a href="/passwords/new">${text("accounts.login.forgot_password")}</a></p>\n`;
      return accountPage(
        layout,
        context,
        title,
        html`${errorAlert(error)}
${postForm("/login", inputs, title)}
${withPasskey && passkeySignInButton(context)}${emailLinkOffers}${loginExtras(context)}<p>${text("accounts.login.new_here")} <a href="/signup">${text("accounts.signup.title")}</a></p>`,
      );
    },

    secondFactor: ({ context, error, passkey }) => {
      const withPasskey = passkey === true && passkeyScripts.length > 0;
      const text = accountText(context.locale);
      const code = labelledInput({
        name: "code",
        label: text("accounts.second_factor.code_label"),
        type: "text",
        autocomplete: "one-time-code",
      });
      return accountPage(
        layout,
        context,
        text("accounts.second_factor.title"),
        html`${errorAlert(error)}
<p>${text("accounts.second_factor.prompt")}</p>
${postForm("/login/second_factor", [code], text("accounts.second_factor.submit"))}
${withPasskey && passkeySecondFactorForm(context)}${pageLink("/login", text("accounts.back_to_login"))}`,
      );
    },

    account: ({
      context,
      email,
      memberSince,
      confirmed,
      emailLinks,
      confirmationMailSent,
      deletionField,
      deletionError,
      showDevices,
      showSecurity,
      showActivity,
      profile,
      showEmailChange,
    }) => {
      const text = accountText(context.locale);
      // Without a way to send a link, a reminder to confirm would ask for what cannot be done.
      const reminder =
        !confirmed &&
        emailLinks &&
        html`<section class="reminder" aria-labelledby="confirm-title">
<h2 id="confirm-title">${text("accounts.account.confirm_title")}</h2>
<p>${text(confirmationMailSent ? "accounts.account.confirmation_sent_to" : "accounts.account.not_confirmed", { email })}</p>
${postForm("/confirmations", captchaInputs(context), text("accounts.account.resend_confirmation"))}
</section>`;
      const deletionInput =
        deletionField === "password"
          ? labelledInput({
              name: "password",
              label: text("accounts.account.confirm_with_password"),
              type: "password",
              autocomplete: "current-password",
            })
          : labelledInput({
              name: "email",
              label: text("accounts.account.confirm_with_email"),
              type: "email",
              autocomplete: "email",
            });
      return accountPage(
        layout,
        context,
        text("accounts.account.title"),
        html`<dl class="facts">
<dt>${text("accounts.field.email")}</dt><dd>${email}</dd>
<dt>${text("accounts.account.member_since")}</dt><dd><time datetime="${memberSince.replace(" ", "T")}Z">${memberSince} UTC</time></dd>
</dl>
${profileForm(context, profile ?? [])}${reminder}
${pageLink("/account/password", text("accounts.password.link"))}
${showEmailChange && pageLink("/account/email", text("accounts.email_change.link"))}
${showDevices && pageLink("/account/sessions", text("accounts.account.devices_link"))}
${showSecurity && pageLink("/account/security", text("accounts.account.security_link"))}
${showActivity && pageLink("/account/activity", text("accounts.activity.link"))}
<section class="danger" aria-labelledby="delete-title">
<h2 id="delete-title">${text("accounts.account.delete_title")}</h2>
<p>${text("accounts.account.delete_warning")}</p>
${errorAlert(deletionError)}
${postForm("/account/delete", [deletionInput], text("accounts.account.delete_button"))}
</section>`,
      );
    },

    magicLinkRequest: ({ context }) =>
      oneFormPage(layout, context, {
        withEmailInput: true,
        title: "accounts.magic_link.request_title",
        intro: "accounts.magic_link.request_intro",
        action: "/magic_link",
        submit: "accounts.magic_link.request_button",
        captcha,
      }),

    magicLinkConfirm: ({ context, token }) =>
      oneFormPage(layout, context, {
        title: "accounts.magic_link.confirm_title",
        intro: "accounts.magic_link.confirm_intro",
        action: `/magic_link/${encodeURIComponent(token)}`,
        submit: "accounts.magic_link.confirm_title",
      }),

    passwordResetRequest: ({ context }) =>
      oneFormPage(layout, context, {
        withEmailInput: true,
        title: "accounts.password_reset.request_title",
        intro: "accounts.password_reset.request_intro",
        action: "/passwords",
        submit: "accounts.password_reset.request_button",
        captcha,
      }),

    newPassword: ({ context, token, errors, offerSignOutEverywhere }) => {
      const { locale } = context;
      const text = accountText(locale);
      const inputs = [
        labelledInput({
          name: "password",
          label: text("accounts.new_password.password_label"),
          type: "password",
          autocomplete: "new-password",
          errors: errors.password ?? [],
          locale,
        }),
        labelledInput({
          name: "password_confirmation",
          label: text("accounts.new_password.confirmation_label"),
          type: "password",
          autocomplete: "new-password",
          errors: errors.password_confirmation ?? [],
          locale,
        }),
        ...(offerSignOutEverywhere
          ? [checkboxInput("sign_out_everywhere", text("accounts.sign_out_other_sessions"), true)]
          : []),
      ];
      return accountPage(
        layout,
        context,
        text("accounts.new_password.title"),
        html`${accountErrorSummary(errors, locale)}
${postForm(`/passwords/${encodeURIComponent(token)}`, inputs, text("accounts.new_password.button"))}`,
      );
    },

    confirmationConfirm: ({ context, token }) =>
      oneFormPage(layout, context, {
        title: "accounts.confirmation.title",
        intro: "accounts.confirmation.intro",
        action: `/confirmations/${encodeURIComponent(token)}`,
        submit: "accounts.confirmation.button",
      }),

    tooManyRequests: ({ context }) =>
      accountPage(
        layout,
        context,
        accountText(context.locale)("accounts.too_many_requests_title"),
        html`<p role="alert">${httpMessages.text(context.locale, "http.rate_limited")}</p>`,
      ),

    unreadableForm: ({ context, title, message }) =>
      accountPage(layout, context, title, html`<p role="alert">${message}</p>`),
  };
}
