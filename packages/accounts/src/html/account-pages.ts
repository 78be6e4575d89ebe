import type { Locale } from "@tessera/core";
import { renderErrorSummary } from "@tessera/fields";
import type { Layout, PageContext } from "@tessera/http";
import { escapeHtml, httpMessages } from "@tessera/http";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import type { FieldErrors } from "../messages.js";
import { pageScriptTags } from "../passkey/page-scripts.js";
import { escapedAccountText, renderForm, renderInput } from "./form-fields.js";

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
    passkeySignIn?: boolean;
  }): string;
  /** The second step of a sign-in: a TOTP or backup code, or a passkey when `passkey`. */
  secondFactor(view: {
    context: PageContext;
    error: string | undefined;
    /** The waiting user has a passkey: offer "Use a passkey". */
    passkey?: boolean;
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
    showSecurity?: boolean;
    /** The profile's fields and their values (the operator columns sign-up accepts). */
    profile?: readonly ProfileField[];
    /** Link to `/account/email` (email changes on, with a mailer). */
    showEmailChange?: boolean;
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
function profileForm(context: PageContext, profile: readonly ProfileField[]): string {
  if (profile.length === 0) return "";
  const inputs = profile.map((field) =>
    renderInput({
      name: field.name,
      label: field.label,
      type: "text",
      autocomplete: field.name === "name" ? "name" : "off",
      value: field.value,
      required: false,
    }),
  );
  const save = accountMessages.text(context.locale, "accounts.profile.save");
  return `${renderForm("/account/profile", inputs.join("\n"), save)}\n`;
}

/** The page's text in its locale, escaped. */
const pageText = (context: PageContext) => escapedAccountText(context.locale);

/** A page of one short form: a title, a sentence, the form's inputs (if any) and its button. */
function oneFormPage(
  layout: Layout,
  context: PageContext,
  page: {
    readonly title: AccountMessageId;
    readonly intro: AccountMessageId;
    readonly action: string;
    readonly submit: AccountMessageId;
    readonly withEmailInput?: boolean;
  },
): string {
  const { locale } = context;
  const title = accountMessages.text(locale, page.title);
  const inputsHtml = page.withEmailInput ? emailInput(locale) : "";
  const afterHtml = page.withEmailInput ? backToLogin(context) : "";
  return layout({
    title,
    context,
    mainHtml: `<h1>${escapeHtml(title)}</h1>
<p>${pageText(context)(page.intro)}</p>
${renderForm(page.action, inputsHtml, accountMessages.text(locale, page.submit))}${afterHtml}`,
  });
}

function emailInput(locale: Locale | undefined): string {
  return renderInput({
    name: "email",
    label: accountMessages.text(locale, "accounts.field.email"),
    type: "email",
    autocomplete: "email",
  });
}

function backToLogin(context: PageContext): string {
  return `\n<p><a href="/login">${pageText(context)("accounts.back_to_login")}</a></p>`;
}

/** Options of {@link defaultAccountPages}. */
export interface DefaultAccountPagesOptions {
  /**
   * Trusted HTML shown on the login page under the form: the sign-in provider buttons
   * (`renderProviderButtons` of @tessera/oauth) when OAuth is on. A function is given the
   * page's locale, so the buttons can be written in it.
   */
  readonly loginExtrasHtml?: string | ((locale: Locale | undefined) => string);
  /**
   * The passkey buttons' browser code, as script URLs the app serves: `@simplewebauthn/browser`'s
   * UMD bundle, then a script that wires the buttons (the example app's `public/passkeys.js`).
   * Without them the pages offer no passkey button.
   */
  readonly passkeyScripts?: readonly string[];
}

/** Our account pages: semantic, accessible HTML in the app's layout, in the page's locale. */
export function defaultAccountPages(
  layout: Layout,
  options: DefaultAccountPagesOptions = {},
): AccountPages {
  const passkeyScripts = options.passkeyScripts ?? [];
  // Both work through the page's script (WebAuthn is a browser API), which these tags load.
  const passkeySignInButton = (context: PageContext) => `<div class="passkey-sign-in">
<button type="button" data-passkey-login data-options-url="/login/passkey/options" data-action="/login/passkey">${pageText(context)("accounts.login.passkey")}</button>
<p class="passkey-error" role="alert" hidden></p>
</div>
${pageScriptTags(passkeyScripts, context.cspNonce)}
`;
  const passkeySecondFactorForm = (
    context: PageContext,
  ) => `<form method="post" action="/login/second_factor" data-passkey-second-factor data-options-url="/login/second_factor/passkey/options">
<input type="hidden" name="passkey" value="">
<p class="passkey-error" role="alert" hidden></p>
<button type="submit">${pageText(context)("accounts.second_factor.passkey")}</button>
</form>
${pageScriptTags(passkeyScripts, context.cspNonce)}
`;
  const loginExtras = (context: PageContext): string => {
    const extras = options.loginExtrasHtml;
    const html = typeof extras === "function" ? extras(context.locale) : extras;
    if (!html) return "";
    const label = pageText(context)("accounts.login.other_ways");
    return `<section class="providers" aria-label="${label}">\n${html}\n</section>\n`;
  };
  return {
    signup: ({ context, email, errors }) => {
      const text = pageText(context);
      const { locale } = context;
      const title = accountMessages.text(locale, "accounts.signup.title");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
${renderErrorSummary(errors, locale)}
${renderForm(
  "/signup",
  [
    renderInput({
      name: "email",
      label: accountMessages.text(locale, "accounts.field.email"),
      type: "email",
      autocomplete: "email",
      value: email,
      errors: errors.email ?? [],
      locale,
    }),
    renderInput({
      name: "password",
      label: accountMessages.text(locale, "accounts.signup.password_label"),
      type: "password",
      autocomplete: "new-password",
      errors: errors.password ?? [],
      locale,
    }),
  ].join("\n"),
  title,
)}
<p>${text("accounts.signup.have_account")} <a href="/login">${text("accounts.login.title")}</a></p>`,
      });
    },

    login: ({ context, email, error, emailLinks, passkeySignIn }) => {
      const withPasskey = passkeySignIn === true && passkeyScripts.length > 0;
      const text = pageText(context);
      const { locale } = context;
      const title = accountMessages.text(locale, "accounts.login.title");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
${error ? `<div class="error-summary" role="alert"><p>${escapeHtml(error)}</p></div>` : ""}
${renderForm(
  "/login",
  [
    renderInput({
      name: "email",
      label: accountMessages.text(locale, "accounts.field.email"),
      type: "email",
      // The browser's own passkey autofill (conditional UI) offers passkeys in this field.
      autocomplete: withPasskey ? "username webauthn" : "email",
      value: email,
    }),
    renderInput({
      name: "password",
      label: accountMessages.text(locale, "accounts.field.password"),
      type: "password",
      autocomplete: "current-password",
    }),
    `<div class="field checkbox"><input id="field-remember_me" name="remember_me" type="checkbox" value="1"><label for="field-remember_me">${text("accounts.login.remember_me")}</label></div>`,
  ].join("\n"),
  title,
)}
${withPasskey ? passkeySignInButton(context) : ""}${emailLinks ? `<p><a href="/magic_link">${text("accounts.magic_link.request_button")}</a> · <a href="/passwords/new">${text("accounts.login.forgot_password")}</a></p>\n` : ""}${loginExtras(context)}<p>${text("accounts.login.new_here")} <a href="/signup">${text("accounts.signup.title")}</a></p>`,
      });
    },

    secondFactor: ({ context, error, passkey }) => {
      const withPasskey = passkey === true && passkeyScripts.length > 0;
      const { locale } = context;
      const text = pageText(context);
      const title = accountMessages.text(locale, "accounts.second_factor.title");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
${error ? `<div class="error-summary" role="alert"><p>${escapeHtml(error)}</p></div>` : ""}
<p>${text("accounts.second_factor.prompt")}</p>
${renderForm(
  "/login/second_factor",
  renderInput({
    name: "code",
    label: accountMessages.text(locale, "accounts.second_factor.code_label"),
    type: "text",
    autocomplete: "one-time-code",
  }),
  accountMessages.text(locale, "accounts.second_factor.submit"),
)}
${withPasskey ? passkeySecondFactorForm(context) : ""}<p><a href="/login">${text("accounts.back_to_login")}</a></p>`,
      });
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
      profile,
      showEmailChange,
    }) => {
      const text = pageText(context);
      const { locale } = context;
      const title = accountMessages.text(locale, "accounts.account.title");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
<dl class="facts">
<dt>${text("accounts.field.email")}</dt><dd>${escapeHtml(email)}</dd>
<dt>${text("accounts.account.member_since")}</dt><dd><time datetime="${escapeHtml(memberSince.replace(" ", "T"))}Z">${escapeHtml(memberSince)} UTC</time></dd>
</dl>
${profileForm(context, profile ?? [])}${
  // Without a way to send a link, a reminder to confirm would ask for what cannot be done.
  confirmed || !emailLinks
    ? ""
    : `<section class="reminder" aria-labelledby="confirm-title">
<h2 id="confirm-title">${text("accounts.account.confirm_title")}</h2>
<p>${text(confirmationMailSent ? "accounts.account.confirmation_sent_to" : "accounts.account.not_confirmed", { email })}</p>
${renderForm("/confirmations", "", accountMessages.text(locale, "accounts.account.resend_confirmation"))}
</section>`
}
<p><a href="/account/password">${text("accounts.password.link")}</a></p>
${showEmailChange ? `<p><a href="/account/email">${text("accounts.email_change.link")}</a></p>` : ""}
${showDevices ? `<p><a href="/account/sessions">${text("accounts.account.devices_link")}</a></p>` : ""}
${showSecurity ? `<p><a href="/account/security">${text("accounts.account.security_link")}</a></p>` : ""}
<section class="danger" aria-labelledby="delete-title">
<h2 id="delete-title">${text("accounts.account.delete_title")}</h2>
<p>${text("accounts.account.delete_warning")}</p>
${deletionError ? `<div class="error-summary" role="alert"><p>${escapeHtml(deletionError)}</p></div>` : ""}
${renderForm(
  "/account/delete",
  deletionField === "password"
    ? renderInput({
        name: "password",
        label: accountMessages.text(locale, "accounts.account.confirm_with_password"),
        type: "password",
        autocomplete: "current-password",
      })
    : renderInput({
        name: "email",
        label: accountMessages.text(locale, "accounts.account.confirm_with_email"),
        type: "email",
        autocomplete: "email",
      }),
  accountMessages.text(locale, "accounts.account.delete_button"),
)}
</section>`,
      });
    },

    magicLinkRequest: ({ context }) =>
      oneFormPage(layout, context, {
        withEmailInput: true,
        title: "accounts.magic_link.request_title",
        intro: "accounts.magic_link.request_intro",
        action: "/magic_link",
        submit: "accounts.magic_link.request_button",
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
      }),

    newPassword: ({ context, token, errors, offerSignOutEverywhere }) => {
      const text = pageText(context);
      const { locale } = context;
      const title = accountMessages.text(locale, "accounts.new_password.title");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
${renderErrorSummary(errors, locale)}
${renderForm(
  `/passwords/${encodeURIComponent(token)}`,
  [
    renderInput({
      name: "password",
      label: accountMessages.text(locale, "accounts.new_password.password_label"),
      type: "password",
      autocomplete: "new-password",
      errors: errors.password ?? [],
      locale,
    }),
    renderInput({
      name: "password_confirmation",
      label: accountMessages.text(locale, "accounts.new_password.confirmation_label"),
      type: "password",
      autocomplete: "new-password",
      errors: errors.password_confirmation ?? [],
      locale,
    }),
    ...(offerSignOutEverywhere
      ? [
          `<div class="field checkbox"><input id="field-sign_out_everywhere" name="sign_out_everywhere" type="checkbox" value="1" checked><label for="field-sign_out_everywhere">${text("accounts.sign_out_other_sessions")}</label></div>`,
        ]
      : []),
  ].join("\n"),
  accountMessages.text(locale, "accounts.new_password.button"),
)}`,
      });
    },

    confirmationConfirm: ({ context, token }) =>
      oneFormPage(layout, context, {
        title: "accounts.confirmation.title",
        intro: "accounts.confirmation.intro",
        action: `/confirmations/${encodeURIComponent(token)}`,
        submit: "accounts.confirmation.button",
      }),

    tooManyRequests: ({ context }) => {
      const title = accountMessages.text(context.locale, "accounts.too_many_requests_title");
      const message = httpMessages.text(context.locale, "http.rate_limited");
      return layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>`,
      });
    },

    unreadableForm: ({ context, title, message }) =>
      layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>`,
      }),
  };
}
