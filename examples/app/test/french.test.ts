// The account routes answer a French browser or client in French, and anyone else in English.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type BrowserResponse, linkIn, pageText } from "./support/browser.js";
import { bearerTokenFor } from "./support/json-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `french${++counter}.${Date.now()}@example.com`;
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a new passphrase";
// Longer than the 100 characters a name may have.
const LONG_NAME = "x".repeat(101);

/** A browser whose every request says `Accept-Language: <language>`. */
class BrowserIn extends Browser {
  constructor(
    baseUrl: string,
    private readonly language: string,
  ) {
    super(baseUrl);
  }

  override request(
    method: string,
    path: string,
    body?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<BrowserResponse> {
    return super.request(method, path, body, {
      "accept-language": this.language,
      ...extraHeaders,
    });
  }
}

/** The app's answer to `json` in `language`, from an address of its own; `token` as the bearer. */
async function sendJson(
  method: string,
  path: string,
  json: unknown,
  language: string,
  token?: string,
) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "accept-language": language,
    "x-forwarded-for": newClientAddress(),
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: JSON.stringify(json),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The last mail to `email`, once the outbox handed it over, failing when there is none. */
async function lastMailTo(email: string) {
  await server.deliverMail();
  const mail = mailer.last(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
}

/** A French browser signed in to a new account, and the account's address. */
async function signedUpInFrench() {
  const browser = new BrowserIn(server.url, "fr");
  const email = uniqueEmail();
  expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  return { browser, email };
}

describe("the JSON account routes in French", () => {
  it("refuse a blank email with a French message and French fields", async () => {
    const response = await sendJson(
      "POST",
      "/api/auth/signup",
      { email: " ", password: PASSWORD },
      "fr-FR,fr;q=0.9,en;q=0.5",
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: {
        code: "validation_failed",
        message: "La validation a échoué",
        status: 422,
        fields: { email: ["doit être rempli(e)"] },
      },
    });
    expect(response.headers.get("content-language")).toBe("fr");
  });

  it("refuse a request without a bearer token with a French message, as every bearer route does", async () => {
    for (const path of ["/api/notes", "/api/orgs/acme/projects", "/api/webhook_endpoints"]) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { "accept-language": "fr" },
      });
      expect([path, response.status, response.headers.get("www-authenticate")]).toEqual([
        path,
        401,
        "Bearer",
      ]);
      expect(await response.json()).toEqual({
        error: { code: "unauthenticated", message: "Non authentifié", status: 401 },
      });
    }
  });

  it("refuse a wrong password with a French message and the same code", async () => {
    const email = uniqueEmail();
    expect(
      (await sendJson("POST", "/api/auth/signup", { email, password: PASSWORD }, "fr")).status,
    ).toBe(201);
    const response = await sendJson(
      "POST",
      "/api/auth/token",
      { email, password: "wrong password" },
      "fr",
    );
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: {
        code: "invalid_credentials",
        message: "Adresse e-mail ou mot de passe incorrect",
        status: 401,
      },
    });
  });
});

describe("the account pages in French", () => {
  it("write the login page in French, saying so in lang, Content-Language and Vary", async () => {
    const page = await new BrowserIn(server.url, "fr").get("/login");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="fr">');
    expect(page.headers.get("content-language")).toBe("fr");
    expect(page.headers.get("vary")).toMatch(/(^|,)\s*Accept-Language\s*(,|$)/i);
    expect(page.html).toContain("<h1>Se connecter</h1>");
    expect(page.html).toContain('<label for="field-email">Adresse e-mail</label>');
    expect(page.html).toContain('<label for="field-password">Mot de passe</label>');
    expect(pageText(page.html)).toContain("Mot de passe oublié ?");
  });

  it("show the sign-up form's field messages in French", async () => {
    const page = await new BrowserIn(server.url, "fr").post("/signup", {
      email: "not-an-email",
      password: PASSWORD,
    });
    expect(page.status).toBe(422);
    expect(pageText(page.html)).toContain("Adresse e-mail n'est pas valide");
    // The summary at the top names the field in French too, as the field's own message does.
    expect(pageText(page.html).match(/Adresse e-mail n'est pas valide/g)).toHaveLength(2);
    expect(pageText(page.html)).not.toContain("Email n'est pas valide");
    const short = await new BrowserIn(server.url, "fr").post("/signup", {
      email: "",
      password: "short",
    });
    const text = pageText(short.html);
    expect(text).toContain("2 erreurs ont empêché l'envoi de ce formulaire");
    expect(text).toContain("est trop court (au moins 8 caractères)");
    expect(text).not.toContain("errors stopped");
  });

  it("flash in French, mail the confirmation in French, and ask for sign-in in French", async () => {
    const browser = new BrowserIn(server.url, "fr");
    const email = uniqueEmail();
    const signedUp = await browser.post("/signup", { email, password: PASSWORD });
    expect(signedUp.status).toBe(303);
    const account = await browser.follow(signedUp);
    expect(account.html).toContain('<html lang="fr">');
    expect(pageText(account.html)).toContain(
      "Bienvenue ! Votre compte est prêt. Consultez vos e-mails pour confirmer votre adresse.",
    );
    expect(pageText(account.html)).toContain(
      `Nous avons envoyé un lien de confirmation à ${email}. Il est valable 24 heures.`,
    );

    await server.deliverMail();
    const mail = mailer.last(email);
    expect(mail?.subject).toBe("Confirmez votre adresse e-mail");
    expect(mail?.text).toContain(
      `Veuillez confirmer que ${email} est bien votre adresse e-mail en ouvrant ce lien :`,
    );
    expect(mail?.text).toContain(
      "Le lien est valable 24 heures et ne fonctionne qu'une fois. Si vous n'avez pas créé de compte, vous pouvez ignorer cet e-mail.",
    );
    expect(linkIn(mail?.text ?? "", "/confirmations").url).toMatch(
      /^https:\/\/app\.example\/confirmations\//,
    );

    const loggedOut = await browser.post("/logout");
    expect(pageText((await browser.follow(loggedOut)).html)).toContain("Déconnexion réussie.");

    const refused = await browser.get("/account");
    expect(refused.location).toBe("/login");
    expect(pageText((await browser.follow(refused)).html)).toContain(
      "Veuillez vous connecter pour continuer.",
    );

    const signedIn = await browser.post("/login", { email, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(pageText((await browser.follow(signedIn)).html)).toContain("Connexion réussie.");
  });

  it("answer a language the app does not ship in English", async () => {
    const page = await new BrowserIn(server.url, "de-DE,de;q=0.9").get("/login");
    expect(page.html).toContain('<html lang="en">');
    expect(page.headers.get("content-language")).toBe("en");
    expect(page.html).toContain("<h1>Log in</h1>");
    const token = await sendJson(
      "POST",
      "/api/auth/token",
      { email: uniqueEmail(), password: PASSWORD },
      "de",
    );
    expect(token.body.error).toEqual({
      code: "invalid_credentials",
      message: "Unauthorized",
      status: 401,
    });
  });
});

describe("the account's life in French", () => {
  it("change the password: the page, a wrong current password, the flash and the notice mail", async () => {
    const { browser, email } = await signedUpInFrench();
    const account = await browser.get("/account");
    expect(account.html).toContain('<a href="/account/password">Modifier votre mot de passe</a>');
    const form = await browser.get("/account/password");
    expect(form.status).toBe(200);
    expect(form.html).toContain('<html lang="fr">');
    expect(form.html).toContain("<h1>Modifier votre mot de passe</h1>");
    expect(form.html).toContain('<label for="field-current_password">Mot de passe actuel</label>');
    expect(form.html).toContain('<label for="field-password">Nouveau mot de passe</label>');
    expect(form.html).toContain(
      '<label for="field-password_confirmation">Confirmez le nouveau mot de passe</label>',
    );
    expect(pageText(form.html)).toContain("Déconnecter mes autres sessions");

    const change = { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    const refused = await browser.post("/account/password", {
      ...change,
      current_password: "wrong password",
      sign_out_others: "1",
    });
    expect(refused.status).toBe(422);
    expect(pageText(refused.html).match(/Mot de passe actuel est incorrect/g)).toHaveLength(2);

    const changed = await browser.post("/account/password", {
      ...change,
      current_password: PASSWORD,
      sign_out_others: "1",
    });
    expect(changed.location).toBe("/account");
    expect(pageText((await browser.follow(changed)).html)).toContain(
      "Votre mot de passe a été modifié.",
    );
    const notice = await lastMailTo(email);
    expect(notice.subject).toBe("Votre mot de passe a été modifié");
    expect(notice.text).toContain(`Le mot de passe de ${email} a été modifié le`);
    expect(notice.text).toContain(
      "Si ce n'était pas vous, réinitialisez votre mot de passe maintenant : https://app.example/passwords/new",
    );
  });

  it("change the email address: the form, both mails, the Confirm page and the flashes", async () => {
    const { browser, email } = await signedUpInFrench();
    const newEmail = uniqueEmail();
    expect((await browser.get("/account")).html).toContain(
      '<a href="/account/email">Modifier votre adresse e-mail</a>',
    );
    const form = await browser.get("/account/email");
    expect(form.html).toContain("<h1>Modifier votre adresse e-mail</h1>");
    expect(form.html).toContain('<label for="field-email">Nouvelle adresse e-mail</label>');
    expect(pageText(form.html)).toContain("Envoyer un lien de confirmation");

    const taken = await browser.post("/account/email", { email, current_password: PASSWORD });
    expect(taken.status).toBe(422);
    expect(pageText(taken.html)).toContain("Adresse e-mail est déjà utilisé(e)");

    const requested = await browser.post("/account/email", {
      email: newEmail,
      current_password: PASSWORD,
    });
    expect(requested.location).toBe("/account");
    expect(pageText((await browser.follow(requested)).html)).toContain(
      "Un lien de confirmation attend dans votre nouvelle boîte.",
    );
    const confirmation = await lastMailTo(newEmail);
    expect(confirmation.subject).toBe("Confirmez votre nouvelle adresse e-mail");
    expect(confirmation.text).toContain(
      `Ouvrez ce lien pour faire de ${newEmail} l'adresse de votre compte :`,
    );
    const link = linkIn(confirmation.text, "/email_changes");
    expect(link.url).toMatch(/^https:\/\/app\.example\/email_changes\//);
    const notice = await lastMailTo(email);
    expect(notice.subject).toBe("Votre adresse e-mail est en cours de modification");
    expect(notice.text).toContain("changer son adresse en f•••@example.com.");
    expect(notice.text).not.toContain(newEmail);

    const confirmPage = await browser.get(link.path);
    expect(confirmPage.status).toBe(200);
    expect(confirmPage.headers.get("content-language")).toBe("fr");
    expect(confirmPage.html).toContain("<h1>Confirmez votre nouvelle adresse e-mail</h1>");
    expect(pageText(confirmPage.html)).toContain(
      `Faire de ${newEmail} l'adresse de votre compte ?`,
    );
    expect(confirmPage.html).toContain('<button type="submit">Confirmer</button>');

    const confirmed = await browser.post(link.path);
    expect(confirmed.location).toBe("/account");
    const account = pageText((await browser.follow(confirmed)).html);
    expect(account).toContain("Votre adresse e-mail a été modifiée.");
    expect(account).toContain(newEmail);
    const used = await browser.post(link.path);
    expect(pageText((await browser.follow(used)).html)).toContain(
      "Ce lien de changement d'adresse est invalide ou a expiré.",
    );
  });

  it("save the profile with a French flash, and refuse a long name with a French alert", async () => {
    const { browser } = await signedUpInFrench();
    const account = await browser.get("/account");
    expect(account.html).toContain('<label for="field-name">Nom</label>');
    expect(account.html).toContain('<button type="submit">Enregistrer</button>');

    const saved = await browser.post("/account/profile", { name: "Ada Lovelace" });
    expect(saved.location).toBe("/account");
    const page = await browser.follow(saved);
    expect(pageText(page.html)).toContain("Votre profil a été mis à jour.");
    expect(page.html).toContain('value="Ada Lovelace"');

    const refused = await browser.post("/account/profile", { name: LONG_NAME });
    expect(pageText((await browser.follow(refused)).html)).toContain(
      "Nom est trop long (pas plus de 100 caractères)",
    );
  });
});

describe("the account's life over JSON in French", () => {
  const wrongPassword = {
    error: {
      code: "invalid_credentials",
      message: "Le mot de passe est incorrect.",
      status: 403,
    },
  };

  it("refuse a wrong current password in French, for the password and for the address", async () => {
    const token = await bearerTokenFor(server.url, uniqueEmail(), { client: newClientAddress() });
    const password = await sendJson(
      "POST",
      "/api/auth/password",
      { current_password: "wrong password", password: NEW_PASSWORD },
      "fr",
      token,
    );
    expect(password.status).toBe(403);
    expect(password.body).toEqual(wrongPassword);
    expect(password.headers.get("content-language")).toBe("fr");
    const email = await sendJson(
      "POST",
      "/api/auth/email",
      { email: uniqueEmail(), current_password: "wrong password" },
      "fr",
      token,
    );
    expect(email.status).toBe(403);
    expect(email.body).toEqual(wrongPassword);
  });

  it("accept an address change in French and mail its link in French", async () => {
    const email = uniqueEmail();
    const newEmail = uniqueEmail();
    const token = await bearerTokenFor(server.url, email, { client: newClientAddress() });
    const requested = await sendJson(
      "POST",
      "/api/auth/email",
      { email: newEmail, current_password: PASSWORD },
      "fr",
      token,
    );
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({
      message: "Un lien de confirmation attend dans votre nouvelle boîte.",
    });
    expect((await lastMailTo(newEmail)).subject).toBe("Confirmez votre nouvelle adresse e-mail");
    expect((await lastMailTo(email)).subject).toBe(
      "Votre adresse e-mail est en cours de modification",
    );
  });

  it("refuse an unusable link and a long name with French field messages", async () => {
    const link = await sendJson("POST", "/api/auth/email/confirm", { token: "A".repeat(43) }, "fr");
    expect(link.status).toBe(422);
    expect(link.body).toEqual({
      error: {
        code: "validation_failed",
        message: "La validation a échoué",
        status: 422,
        fields: { token: ["n'est pas valide"] },
      },
    });
    const token = await bearerTokenFor(server.url, uniqueEmail(), { client: newClientAddress() });
    const name = await sendJson("PATCH", "/api/auth/me", { name: LONG_NAME }, "fr", token);
    expect(name.status).toBe(422);
    expect(name.body.error.fields).toEqual({
      name: ["est trop long (pas plus de 100 caractères)"],
    });
  });
});
