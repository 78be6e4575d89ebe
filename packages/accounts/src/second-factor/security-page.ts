import { formatTimestamp, html, joinHtml, type SafeHtml, unsafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { labelledInput } from "../html/form-fields.js";
import { accountPage, accountText, errorAlert, pageLink, postForm } from "../html/form-page-kit.js";
import { pageScriptTags } from "../passkey/page-scripts.js";
import type { Passkey } from "../passkey/passkey-store.js";

/** Where the security page lives; its forms post under it. */
export const SECURITY_PATH = "/account/security";

/** What the security page shows. */
export interface SecurityView {
  readonly context: PageContext;
  /** TOTP's state; undefined when second factors are off. */
  readonly totp: "off" | "pending" | "on" | undefined;
  /** Right after turning TOTP on: the key as text and its QR code (SVG we drew). */
  readonly setup?: { readonly secret: string; readonly qrSvg: string } | undefined;
  /** Backup codes to show this once, after confirming or regenerating. */
  readonly backupCodes?: readonly string[] | undefined;
  readonly backupCodesLeft: number;
  /** The user's passkeys; undefined when passkeys are off. */
  readonly passkeys: readonly Passkey[] | undefined;
  readonly error?: string | undefined;
  /**
   * Set while the browser's sign-in is not a recent, full one: the page asks the person to
   * confirm it is them (`password`: with the password; `code`: and a second-factor code), or
   * to sign in again (`sign-in`, a user without a password).
   */
  readonly reauthenticate?: { readonly password: boolean; readonly code: boolean } | undefined;
}

/** The security page's HTML. `defaultSecurityPages(layout, scripts)` gives ours. */
export interface SecurityPages {
  security(view: SecurityView): string;
}

function renderTime(epochMs: number): SafeHtml {
  const text = formatTimestamp(epochMs);
  return html`<time datetime="${text.replace(" ", "T")}Z">${text} UTC</time>`;
}

/** The password asked again; each form's input has an id of its own on the one page. */
function passwordInput(view: SecurityView, form: string): SafeHtml {
  const id = `field-password-${form}`;
  const label = accountText(view.context.locale)("accounts.account.confirm_with_password");
  return html`<div class="field">
<label for="${id}">${label}</label>
<input id="${id}" name="password" type="password" autocomplete="current-password" required>
</div>`;
}

/** The "confirm it is you" form, or the advice to sign in again, while one is needed. */
function reauthenticateSection(view: SecurityView): SafeHtml {
  const asked = view.reauthenticate;
  if (!asked) return html``;
  const text = accountText(view.context.locale);
  const code = asked.code
    ? labelledInput({
        name: "code",
        label: text("accounts.second_factor.code_label"),
        type: "text",
        autocomplete: "one-time-code",
      })
    : html``;
  const body = asked.password
    ? postForm(
        `${SECURITY_PATH}/reauthenticate`,
        [passwordInput(view, "reauthenticate"), code],
        text("accounts.security.reauthenticate_button"),
      )
    : pageLink("/login", text("accounts.security.sign_in_again"));
  return html`<section aria-labelledby="reauthenticate-title" class="reauthenticate">
<h2 id="reauthenticate-title">${text("accounts.security.reauthenticate_title")}</h2>
<p>${text("accounts.security.reauthenticate_intro")}</p>
${body}
</section>`;
}

function totpSection(view: SecurityView): SafeHtml {
  const text = accountText(view.context.locale);
  let body: SafeHtml;
  if (view.setup) {
    const code = labelledInput({
      name: "code",
      label: text("accounts.second_factor.code_label"),
      type: "text",
      autocomplete: "one-time-code",
    });
    // The SVG is ours (uqr's drawing of the otpauth URI): no user text in it.
    body = html`<p>${text("accounts.security.totp_scan")}</p>
<div class="qr">${unsafeHtml(view.setup.qrSvg)}</div>
<p>${text("accounts.security.totp_key")}: <code id="totp-secret">${view.setup.secret}</code></p>
${postForm(`${SECURITY_PATH}/totp/confirm`, [code], text("accounts.security.totp_confirm"))}`;
  } else if (view.totp === "on") {
    body = html`<p>${text("accounts.security.totp_on", { count: view.backupCodesLeft })}</p>
${postForm(`${SECURITY_PATH}/backup_codes`, [passwordInput(view, "codes")], text("accounts.security.regenerate"))}
${postForm(`${SECURITY_PATH}/totp/delete`, [passwordInput(view, "off")], text("accounts.security.totp_disable"))}`;
  } else {
    body = html`<p>${text("accounts.security.totp_off")}</p>
${postForm(`${SECURITY_PATH}/totp`, [passwordInput(view, "on")], text("accounts.security.totp_enable"))}`;
  }
  const codes =
    view.backupCodes &&
    html`<section class="backup-codes" aria-labelledby="backup-codes-title">
<h3 id="backup-codes-title">${text("accounts.security.backup_codes_title")}</h3>
<p>${text("accounts.security.backup_codes_intro")}</p>
<ul>${view.backupCodes.map((code) => html`<li><code>${code}</code></li>`)}</ul>
</section>`;
  return html`<section aria-labelledby="totp-title">
<h2 id="totp-title">${text("accounts.security.totp_title")}</h2>
${codes}
${body}
</section>`;
}

function passkeyRow(passkey: Passkey, view: SecurityView): SafeHtml {
  const text = accountText(view.context.locale);
  const nameId = `passkey-${passkey.id}-name`;
  return html`<tr>
<th scope="row" id="passkey-${passkey.id}">${passkey.name}</th>
<td>${renderTime(passkey.createdAt)}</td>
<td>${passkey.lastUsedAt === null ? text("accounts.security.never_used") : renderTime(passkey.lastUsedAt)}</td>
<td><form method="post" action="${SECURITY_PATH}/passkeys/${passkey.id}" class="inline">
<label for="${nameId}">${text("accounts.security.passkey_name")}</label>
<input id="${nameId}" name="name" type="text" maxlength="100" value="${passkey.name}">
<button type="submit">${text("accounts.security.rename")}</button>
</form>
<form method="post" action="${SECURITY_PATH}/passkeys/${passkey.id}/delete" class="inline">
<button type="submit" aria-describedby="passkey-${passkey.id}">${text("accounts.security.remove")}</button>
</form></td>
</tr>`;
}

function passkeySection(view: SecurityView, passkeys: readonly Passkey[]): SafeHtml {
  const text = accountText(view.context.locale);
  const list =
    passkeys.length === 0
      ? html`<p>${text("accounts.security.no_passkeys")}</p>`
      : html`<table class="passkeys">
<thead><tr><th scope="col">${text("accounts.security.passkey_name")}</th><th scope="col">${text("accounts.security.passkey_added_at")}</th><th scope="col">${text("accounts.security.passkey_last_used")}</th><th scope="col">${text("accounts.sessions.action")}</th></tr></thead>
<tbody>
${joinHtml(
  passkeys.map((passkey) => passkeyRow(passkey, view)),
  "\n",
)}
</tbody>
</table>`;
  // Adding one takes the browser's WebAuthn API: the form works through the page's script.
  return html`<section aria-labelledby="passkeys-title">
<h2 id="passkeys-title">${text("accounts.security.passkeys_title")}</h2>
${list}
<form method="post" action="${SECURITY_PATH}/passkeys" data-passkey-add data-options-url="${SECURITY_PATH}/passkeys/options">
<div class="field"><label for="field-passkey-name">${text("accounts.security.passkey_name")}</label>
<input id="field-passkey-name" name="name" type="text" maxlength="100"></div>
<p class="passkey-error" role="alert" hidden></p>
<button type="submit">${text("accounts.security.add_passkey")}</button>
</form>
</section>`;
}

/**
 * Our security page: TOTP (turn on with the QR code and the key as text, confirm, backup codes
 * shown once, new ones, turn off) and passkeys (list, add, rename, remove). `scripts` are the
 * passkey buttons' browser code, tagged with the page's nonce.
 */
export function defaultSecurityPages(layout: Layout, scripts: readonly string[]): SecurityPages {
  return {
    security: (view) => {
      const { context } = view;
      const text = accountText(context.locale);
      return accountPage(
        layout,
        context,
        text("accounts.security.title"),
        html`${errorAlert(view.error)}
${reauthenticateSection(view)}
${view.totp !== undefined && totpSection(view)}
${view.passkeys !== undefined && passkeySection(view, view.passkeys)}
${pageLink("/account", text("accounts.security.back_to_account"))}
${view.passkeys !== undefined && pageScriptTags(scripts, context.cspNonce)}`,
      );
    },
  };
}
