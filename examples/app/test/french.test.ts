// The account routes answer a French browser or client in French, and anyone else in English.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type BrowserResponse, linkIn, pageText } from "./support/browser.js";
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

async function postJson(path: string, json: unknown, language: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "accept-language": language,
      "x-forwarded-for": newClientAddress(),
    },
    body: JSON.stringify(json),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("the JSON account routes in French", () => {
  it("refuse a blank email with a French message and French fields", async () => {
    const response = await postJson(
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

  it("refuse a wrong password with a French message and the same code", async () => {
    const email = uniqueEmail();
    expect((await postJson("/api/auth/signup", { email, password: PASSWORD }, "fr")).status).toBe(
      201,
    );
    const response = await postJson("/api/auth/token", { email, password: "wrong password" }, "fr");
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
    const token = await postJson(
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
