// The account pages written with core's `html`: every value a page is given reaches it escaped,
// and only the two documented trusted inserts (the login extras and the QR code's SVG) go in as
// they are.
import type { Layout, PageContext } from "@tessera/http";
import { describe, expect, it } from "vitest";
import { labelledInput } from "../src/html/form-fields.js";
import { errorAlert } from "../src/html/form-page-kit.js";
import {
  defaultAccountPages,
  defaultEmailChangePages,
  defaultPasswordPage,
  defaultSessionPages,
} from "../src/index.js";
import { pageScriptTags } from "../src/passkey/page-scripts.js";
import { defaultSecurityPages } from "../src/second-factor/security-page.js";

const HOSTILE = `<b>"Tom" & 'Jerry'</b>`;
const ESCAPED = "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;";

/** The page's main content alone, so what the layout adds plays no part. */
const layout: Layout = ({ mainHtml }) => mainHtml;
const context: PageContext = { signedInEmail: undefined, flashes: [], cspNonce: HOSTILE };
const errors = { email: [HOSTILE], password: [HOSTILE] };

/** Every page, each given the hostile text wherever it takes text. */
function everyPage(): Record<string, string> {
  const pages = defaultAccountPages(layout, { passkeyScripts: [HOSTILE] });
  const passkey = {
    id: 1,
    userId: 1,
    credentialId: "c",
    publicKey: "p",
    counter: 0,
    transports: [],
    name: HOSTILE,
    createdAt: 0,
    lastUsedAt: null,
  };
  const session = {
    id: 1,
    userId: 1,
    ipAddress: HOSTILE,
    browser: HOSTILE,
    userAgent: null,
    lastSeenAt: 0,
    expiresAt: 0,
    createdAt: 0,
    factors: [HOSTILE],
  };
  const emailChange = defaultEmailChangePages(layout);
  return {
    signup: pages.signup({ context, email: HOSTILE, errors }),
    login: pages.login({
      context,
      email: HOSTILE,
      error: HOSTILE,
      emailLinks: true,
      passkeySignIn: true,
    }),
    secondFactor: pages.secondFactor({ context, error: HOSTILE, passkey: true }),
    account: pages.account({
      context,
      email: HOSTILE,
      memberSince: HOSTILE,
      confirmed: false,
      emailLinks: true,
      confirmationMailSent: true,
      deletionField: "password",
      deletionError: HOSTILE,
      showDevices: true,
      profile: [{ name: "name", label: HOSTILE, value: HOSTILE }],
    }),
    magicLinkConfirm: pages.magicLinkConfirm({ context, token: HOSTILE }),
    newPassword: pages.newPassword({
      context,
      token: HOSTILE,
      errors,
      offerSignOutEverywhere: true,
    }),
    unreadableForm: pages.unreadableForm({ context, title: HOSTILE, message: HOSTILE }),
    security: defaultSecurityPages(layout, [HOSTILE]).security({
      context,
      totp: "pending",
      setup: { secret: HOSTILE, qrSvg: "<svg></svg>" },
      backupCodes: [HOSTILE],
      backupCodesLeft: 1,
      passkeys: [passkey],
      error: HOSTILE,
    }),
    sessions: defaultSessionPages(layout).sessions({ context, sessions: [session], currentId: 2 }),
    password: defaultPasswordPage(layout)({
      context,
      hasPassword: true,
      errors,
      error: HOSTILE,
      signOutOthers: true,
    }),
    emailChangeForm: emailChange.emailChangeForm({
      context,
      currentEmail: HOSTILE,
      email: HOSTILE,
      hasPassword: true,
      errors,
      error: HOSTILE,
    }),
    emailChangeConfirm: emailChange.emailChangeConfirm({
      context,
      token: HOSTILE,
      newEmail: HOSTILE,
    }),
  };
}

describe("the account pages", () => {
  it("escape every value they are given", () => {
    for (const [name, page] of Object.entries(everyPage())) {
      expect(page, name).not.toContain("<b>");
      expect(page, name).not.toContain(`"Tom"`);
    }
    const pages = everyPage();
    expect(pages.login).toContain(
      `<div class="error-summary" role="alert"><p>${ESCAPED}</p></div>`,
    );
    expect(pages.account).toContain(`<dd>${ESCAPED}</dd>`);
    expect(pages.security).toContain(`<code id="totp-secret">${ESCAPED}</code>`);
    expect(pages.sessions).toContain(`<td>${ESCAPED}</td>`);
    expect(pages.emailChangeForm).toContain(`value="${ESCAPED}"`);
  });

  it("put the app's login extras and the QR code's SVG in as they are", () => {
    const login = defaultAccountPages(layout, {
      loginExtrasHtml: '<a href="/auth/github">GitHub</a>',
    }).login({ context, email: "", error: undefined, emailLinks: false });
    expect(login).toContain('">\n<a href="/auth/github">GitHub</a>\n</section>');
    expect(everyPage().security).toContain('<div class="qr"><svg></svg></div>');
  });

  it("write the same markup for one short form as before the html template", () => {
    const page = defaultAccountPages(layout).magicLinkRequest({ context });
    expect(page).toBe(`<h1>Sign in with a link</h1>
<p>Enter your email address and we will send you a link that signs you in.</p>
<form method="post" action="/magic_link" novalidate>
<div class="field">
<label for="field-email">Email</label>
<input id="field-email" name="email" type="email" autocomplete="email" required>
</div>
<button type="submit">Email me a sign-in link</button>
</form>
<p><a href="/login">Back to log in</a></p>`);
  });
});

describe("the form-page kit", () => {
  it("escapes a field's name in its ids too, and never writes a password back", () => {
    const input = labelledInput({
      name: 'a"b',
      label: "A",
      type: "password",
      autocomplete: "off",
      value: "secret",
      errors: ["can't be blank"],
    });
    expect(String(input)).toContain(
      '<input id="field-a&quot;b" name="a&quot;b" type="password" autocomplete="off" required aria-invalid="true" aria-describedby="field-a&quot;b-errors">',
    );
    expect(String(input)).not.toContain("secret");
  });

  it("writes no alert without a message", () => {
    expect(String(errorAlert(undefined))).toBe("");
    expect(String(errorAlert(""))).toBe("");
  });

  it("tags each script with the nonce, escaped, and writes none without urls", () => {
    expect(String(pageScriptTags(["/a.js?x&y", "/b.js"], '"n'))).toBe(
      '<script src="/a.js?x&amp;y" defer nonce="&quot;n"></script>\n<script src="/b.js" defer nonce="&quot;n"></script>',
    );
    expect(String(pageScriptTags(["/a.js"], undefined))).toBe(
      '<script src="/a.js" defer></script>',
    );
    expect(String(pageScriptTags([], "n"))).toBe("");
  });
});
