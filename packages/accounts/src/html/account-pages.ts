import { renderErrorSummary } from "@tessera/fields";
import type { Layout, PageContext } from "@tessera/http";
import { escapeHtml } from "@tessera/http";
import type { FieldErrors } from "../messages.js";
import { renderForm, renderInput } from "./form-fields.js";

/** The account pages' HTML. `defaultAccountPages(layout)` gives ours; replace any you like. */
export interface AccountPages {
  signup(view: { context: PageContext; email: string; errors: FieldErrors }): string;
  login(view: { context: PageContext; email: string; error: string | undefined }): string;
  account(view: {
    context: PageContext;
    email: string;
    memberSince: string;
    confirmed: boolean;
    /** The deletion confirmation asks for the password, or the email for users without one. */
    deletionField: "password" | "email";
    deletionError: string | undefined;
    /** Link to the list of signed-in devices (tracked sessions on). */
    showDevices: boolean;
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

/** A page of one short form: a title, a sentence, the form's inputs (if any) and its button. */
function oneFormPage(
  layout: Layout,
  context: PageContext,
  page: {
    readonly title: string;
    readonly intro: string;
    readonly action: string;
    readonly submit: string;
    readonly inputsHtml?: string;
    readonly afterHtml?: string;
  },
): string {
  return layout({
    title: page.title,
    context,
    mainHtml: `<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.intro)}</p>
${renderForm(page.action, page.inputsHtml ?? "", page.submit)}${page.afterHtml ?? ""}`,
  });
}

const EMAIL_INPUT = renderInput({
  name: "email",
  label: "Email",
  type: "email",
  autocomplete: "email",
});
const BACK_TO_LOGIN = `\n<p><a href="/login">Back to log in</a></p>`;

/** Options of {@link defaultAccountPages}. */
export interface DefaultAccountPagesOptions {
  /**
   * Trusted HTML shown on the login page under the form: the sign-in provider buttons
   * (`renderProviderButtons` of @tessera/oauth) when OAuth is on.
   */
  readonly loginExtrasHtml?: string;
}

/** Our account pages: semantic, accessible HTML in the app's layout. */
export function defaultAccountPages(
  layout: Layout,
  options: DefaultAccountPagesOptions = {},
): AccountPages {
  const loginExtras = options.loginExtrasHtml
    ? `<section class="providers" aria-label="Other ways to sign in">\n${options.loginExtrasHtml}\n</section>\n`
    : "";
  return {
    signup: ({ context, email, errors }) =>
      layout({
        title: "Sign up",
        context,
        mainHtml: `<h1>Sign up</h1>
${renderErrorSummary(errors)}
${renderForm(
  "/signup",
  [
    renderInput({
      name: "email",
      label: "Email",
      type: "email",
      autocomplete: "email",
      value: email,
      errors: errors.email ?? [],
    }),
    renderInput({
      name: "password",
      label: "Password (8 to 128 characters)",
      type: "password",
      autocomplete: "new-password",
      errors: errors.password ?? [],
    }),
  ].join("\n"),
  "Sign up",
)}
<p>Already have an account? <a href="/login">Log in</a></p>`,
      }),

    login: ({ context, email, error }) =>
      layout({
        title: "Log in",
        context,
        mainHtml: `<h1>Log in</h1>
${error ? `<div class="error-summary" role="alert"><p>${escapeHtml(error)}</p></div>` : ""}
${renderForm(
  "/login",
  [
    renderInput({
      name: "email",
      label: "Email",
      type: "email",
      autocomplete: "email",
      value: email,
    }),
    renderInput({
      name: "password",
      label: "Password",
      type: "password",
      autocomplete: "current-password",
    }),
    `<div class="field checkbox"><input id="field-remember_me" name="remember_me" type="checkbox" value="1"><label for="field-remember_me">Keep me signed in for two weeks</label></div>`,
  ].join("\n"),
  "Log in",
)}
<p><a href="/magic_link">Email me a sign-in link</a> · <a href="/passwords/new">Forgot your password?</a></p>
${loginExtras}<p>New here? <a href="/signup">Sign up</a></p>`,
      }),

    account: ({
      context,
      email,
      memberSince,
      confirmed,
      deletionField,
      deletionError,
      showDevices,
    }) =>
      layout({
        title: "Your account",
        context,
        mainHtml: `<h1>Your account</h1>
<dl class="facts">
<dt>Email</dt><dd>${escapeHtml(email)}</dd>
<dt>Member since</dt><dd><time datetime="${escapeHtml(memberSince.replace(" ", "T"))}Z">${escapeHtml(memberSince)} UTC</time></dd>
</dl>
${
  confirmed
    ? ""
    : `<section class="reminder" aria-labelledby="confirm-title">
<h2 id="confirm-title">Please confirm your email address</h2>
<p>We sent a confirmation link to ${escapeHtml(email)}. It is valid for 24 hours.</p>
${renderForm("/confirmations", "", "Send a new confirmation link")}
</section>`
}
${showDevices ? `<p><a href="/account/sessions">Your signed-in devices</a></p>` : ""}
<section class="danger" aria-labelledby="delete-title">
<h2 id="delete-title">Delete your account</h2>
<p>This deletes your account and everything it owns, at once and for good.</p>
${deletionError ? `<div class="error-summary" role="alert"><p>${escapeHtml(deletionError)}</p></div>` : ""}
${renderForm(
  "/account/delete",
  deletionField === "password"
    ? renderInput({
        name: "password",
        label: "Your password, to confirm",
        type: "password",
        autocomplete: "current-password",
      })
    : renderInput({
        name: "email",
        label: "Your email address, to confirm",
        type: "email",
        autocomplete: "email",
      }),
  "Delete my account",
)}
</section>`,
      }),

    magicLinkRequest: ({ context }) =>
      oneFormPage(layout, context, {
        inputsHtml: EMAIL_INPUT,
        afterHtml: BACK_TO_LOGIN,
        title: "Sign in with a link",
        intro: "Enter your email address and we will send you a link that signs you in.",
        action: "/magic_link",
        submit: "Email me a sign-in link",
      }),

    magicLinkConfirm: ({ context, token }) =>
      oneFormPage(layout, context, {
        title: "Sign in",
        intro: "Press the button to sign in. The link works once.",
        action: `/magic_link/${encodeURIComponent(token)}`,
        submit: "Sign in",
      }),

    passwordResetRequest: ({ context }) =>
      oneFormPage(layout, context, {
        inputsHtml: EMAIL_INPUT,
        afterHtml: BACK_TO_LOGIN,
        title: "Reset your password",
        intro: "Enter your email address and we will send you a link to choose a new password.",
        action: "/passwords",
        submit: "Email me a reset link",
      }),

    newPassword: ({ context, token, errors, offerSignOutEverywhere }) =>
      layout({
        title: "Choose a new password",
        context,
        mainHtml: `<h1>Choose a new password</h1>
${renderErrorSummary(errors)}
${renderForm(
  `/passwords/${encodeURIComponent(token)}`,
  [
    renderInput({
      name: "password",
      label: "New password (8 to 128 characters)",
      type: "password",
      autocomplete: "new-password",
      errors: errors.password ?? [],
    }),
    renderInput({
      name: "password_confirmation",
      label: "New password again",
      type: "password",
      autocomplete: "new-password",
      errors: errors.password_confirmation ?? [],
    }),
    ...(offerSignOutEverywhere
      ? [
          `<div class="field checkbox"><input id="field-sign_out_everywhere" name="sign_out_everywhere" type="checkbox" value="1" checked><label for="field-sign_out_everywhere">Sign out of all other sessions</label></div>`,
        ]
      : []),
  ].join("\n"),
  "Save the new password",
)}`,
      }),

    confirmationConfirm: ({ context, token }) =>
      oneFormPage(layout, context, {
        title: "Confirm your email address",
        intro: "Press the button to confirm your email address.",
        action: `/confirmations/${encodeURIComponent(token)}`,
        submit: "Confirm my email address",
      }),

    tooManyRequests: ({ context }) =>
      layout({
        title: "Too many requests",
        context,
        mainHtml: `<h1>Too many requests</h1>
<p role="alert">Too many requests. Try again later.</p>`,
      }),

    unreadableForm: ({ context, title, message }) =>
      layout({
        title,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>`,
      }),
  };
}
