import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, pageText } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(() => server.stop());

const PASSWORD = "tracked passphrase";

async function signedInPair() {
  const email = `tracked.${Date.now()}.${Math.random()}@example.com`;
  const laptop = new Browser(server.url);
  expect((await laptop.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  const phone = new Browser(server.url);
  expect((await phone.post("/login", { email, password: PASSWORD })).status).toBe(303);
  return { email, laptop, phone };
}

function deviceIds(html: string): number[] {
  return [...html.matchAll(/action="\/account\/sessions\/(\d+)\/delete"/g)].map((match) =>
    Number(match[1]),
  );
}

describe("tracked sessions in the example app", () => {
  it("lists both devices, marks this one, and signs the other out when it is ended", async () => {
    const { laptop, phone } = await signedInPair();
    const list = await laptop.get("/account/sessions");
    expect(list.status).toBe(200);
    const text = pageText(list.html);
    expect(text).toContain("This device");
    expect(text).toContain(laptop.clientAddress);
    expect(text).toContain(phone.clientAddress);
    const [phoneSession] = deviceIds(list.html);
    expect(phoneSession).toBeDefined();

    const copiedCookie = phone.sessionCookie!;
    const ended = await laptop.post(`/account/sessions/${phoneSession}/delete`);
    expect(ended.location).toBe("/account/sessions");
    expect(pageText((await laptop.follow(ended)).html)).toContain("That device is signed out.");

    expect((await phone.get("/account")).location).toBe("/login");
    const thief = new Browser(server.url);
    thief.cookies.set("_tessera_session", copiedCookie);
    expect((await thief.get("/account")).location).toBe("/login");
    expect((await laptop.get("/account")).status).toBe(200);
  });

  it("ends every other session and keeps this one", async () => {
    const { email, laptop, phone } = await signedInPair();
    const tablet = new Browser(server.url);
    await tablet.post("/login", { email, password: PASSWORD });
    const ended = await laptop.post("/account/sessions/others/delete");
    expect(pageText((await laptop.follow(ended)).html)).toContain(
      "Signed out of 2 other session(s).",
    );
    expect((await phone.get("/account")).location).toBe("/login");
    expect((await tablet.get("/account")).location).toBe("/login");
    expect((await laptop.get("/account")).status).toBe(200);
  });

  it("answers 404 for another user's session and deletes the row at logout", async () => {
    const first = await signedInPair();
    const second = await signedInPair();
    const [othersSession] = deviceIds((await second.laptop.get("/account/sessions")).html);
    expect((await first.laptop.post(`/account/sessions/${othersSession}/delete`)).status).toBe(404);
    expect((await second.phone.get("/account")).status).toBe(200);

    const [{ count: before }] = (await server.query<{ count: number }>(
      "SELECT count(*) AS count FROM user_sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)",
      first.email,
    )) as [{ count: number }];
    await first.phone.post("/logout");
    const [{ count: after }] = (await server.query<{ count: number }>(
      "SELECT count(*) AS count FROM user_sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)",
      first.email,
    )) as [{ count: number }];
    expect(after).toBe(before - 1);
  });
});
