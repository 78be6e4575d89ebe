// The app in the language the client asks for (Accept-Language), over real HTTP: the record
// API and pages, the home page and the 404; French where the app ships it, English otherwise.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
  const client = newClientAddress();
  const credentials = {
    email: `french.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  const headers = { "content-type": "application/json", "x-forwarded-for": client };
  const body = JSON.stringify(credentials);
  expect(
    (await fetch(`${server.url}/api/auth/signup`, { method: "POST", headers, body })).status,
  ).toBe(201);
  const issued = await fetch(`${server.url}/api/auth/token`, { method: "POST", headers, body });
  token = ((await issued.json()) as { token: string }).token;
});
afterAll(() => server.stop());

function api(path: string, init: { method?: string; json?: unknown; language?: string } = {}) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "x-forwarded-for": "203.0.113.77",
  };
  if (init.language) headers["accept-language"] = init.language;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  return fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.json === undefined ? null : JSON.stringify(init.json),
  });
}

describe("the record API in French", () => {
  it("answers a 422 with the message and every field's messages in French", async () => {
    const response = await api("/api/posts", {
      method: "POST",
      json: { title: "", published: true, status: "draft" },
      language: "fr-FR,fr;q=0.9,en;q=0.5",
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-language")).toBe("fr");
    expect(response.headers.get("vary")).toContain("Accept-Language");
    const body = await response.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.message).toBe("La validation a échoué");
    expect(body.error.fields.title).toEqual(["doit être rempli(e)"]);
  });

  it("answers a 404 in French and the same 404 in English for an unshipped language", async () => {
    const french = await api("/api/posts/999999", { language: "fr" });
    expect(await french.json()).toEqual({
      error: { code: "not_found", message: "Introuvable", status: 404 },
    });
    const german = await api("/api/posts/999999", { language: "de" });
    expect((await german.json()).error.message).toBe("Not found");
    expect(german.headers.get("content-language")).toBe("en");
  });

  it("answers a stale lock_version in French with its code unchanged", async () => {
    const json = { title: "a", published: false, status: "draft" };
    const created = await api("/api/posts", { method: "POST", json });
    expect(created.status).toBe(201);
    const post = await created.json();
    const stale = await api(`/api/posts/${post.id}`, {
      method: "PATCH",
      json: { title: "b", lock_version: post.lock_version + 5 },
      language: "fr",
    });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body.error.code).toBe("stale_record");
    expect(body.error.message).toBe(
      "Cet enregistrement a été modifié par quelqu'un d'autre : rechargez-le et réessayez",
    );
  });
});

describe("GraphQL in French", () => {
  it("writes a refused mutation's message and fields in French, its code unchanged", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "accept-language": "fr",
      },
      body: JSON.stringify({
        query: "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id } }",
        variables: { input: { title: "", pinned: false } },
      }),
    });
    const [error] = (await response.json()).errors;
    expect(error.message).toBe("La validation a échoué");
    expect(error.extensions).toMatchObject({
      code: "validation_failed",
      fields: { title: ["doit être rempli(e)"] },
    });
  });
});

describe("the record pages in French", () => {
  async function signedIn(language: string): Promise<Browser> {
    const browser = new Browser(server.url);
    const email = `pages.fr.${Date.now()}.${Math.random()}@example.com`;
    const response = await browser.request(
      "POST",
      "/signup",
      new URLSearchParams({ email, password: "correct horse battery" }).toString(),
      { "accept-language": language },
    );
    expect(response.status).toBe(303);
    return browser;
  }

  it("writes the listing, the form, its error summary and the flash in French", async () => {
    const browser = await signedIn("fr");
    const fr = { "accept-language": "fr" };
    const listing = await browser.request("GET", "/notes", undefined, fr);
    expect(listing.status).toBe(200);
    expect(listing.headers.get("content-language")).toBe("fr");
    expect(listing.html).toContain('<html lang="fr">');
    expect(listing.html).toContain("Nouvel enregistrement : note");

    const refused = await browser.request("POST", "/notes", "title=&pinned=0", fr);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("1 erreur a empêché l&#39;envoi de ce formulaire");
    expect(refused.html).toContain("Title doit être rempli(e)");

    const created = await browser.request("POST", "/notes", "title=Bonjour&pinned=0", fr);
    expect(created.status).toBe(303);
    const shown = await browser.request("GET", created.location ?? "/", undefined, fr);
    expect(shown.html).toContain("Note : enregistrement créé.");
    expect(shown.html).toContain("Modifier");
  });

  it("writes the same pages in English without Accept-Language", async () => {
    const browser = await signedIn("en");
    const listing = await browser.get("/notes");
    expect(listing.html).toContain('<html lang="en">');
    expect(listing.html).toContain("New note");
    const refused = await browser.post("/notes", { title: "", pinned: "0" });
    expect(refused.html).toContain("1 error stopped this form");
  });
});

describe("answers outside the routes", () => {
  it("writes the home page, its frame and its headers in French", async () => {
    const response = await fetch(`${server.url}/`, { headers: { "accept-language": "fr-CA" } });
    const html = await response.text();
    expect(response.headers.get("content-language")).toBe("fr");
    expect(response.headers.get("vary")).toContain("Accept-Language");
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("<title>Accueil · Exemple Tessera</title>");
    expect(html).toContain("<h1>Application d&#39;exemple Tessera</h1>");
    expect(html).toContain('<a href="/login">Se connecter</a>');
  });

  it("answers an unknown path with a French 404, and an English one otherwise", async () => {
    const french = await fetch(`${server.url}/api/nothing-here`, {
      headers: { "accept-language": "fr" },
    });
    expect(french.status).toBe(404);
    expect(french.headers.get("content-language")).toBe("fr");
    expect(french.headers.get("vary")).toBe("Accept-Language");
    expect((await french.json()).error.message).toBe("Introuvable");
    const english = await fetch(`${server.url}/api/nothing-here`);
    expect((await english.json()).error.message).toBe("Not found");
    expect(english.headers.get("content-language")).toBe("en");
  });
});
