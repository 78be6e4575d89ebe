import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, linkIn, pageText } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { mailer });
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `preview${++counter}.${Date.now()}@example.com`;

interface MailJson {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  sent_at: string;
  status: string;
}

async function mailJson(): Promise<MailJson[]> {
  const response = await fetch(`${server.url}/dev/mail.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

async function signUp(email: string) {
  const response = await new Browser(server.url).post("/signup", {
    email,
    password: "correct horse battery",
  });
  expect(response.status).toBe(303);
}

describe("GET /dev/mail.json", () => {
  it("lists the mails the app sent, newest first, pending until the sender hands them over", async () => {
    const first = uniqueEmail();
    const second = uniqueEmail();
    const before = Date.now() - 1000;
    await signUp(first);
    await signUp(second);
    const [newest, older] = await mailJson();
    expect(newest).toMatchObject({ to: second, subject: "Confirm your email address" });
    expect(older).toMatchObject({ to: first, subject: "Confirm your email address" });
    expect(Object.keys(newest!).sort()).toEqual(
      ["html", "sent_at", "status", "subject", "text", "to"].sort(),
    );
    expect(newest!.text).toContain("/confirmations/");
    expect(newest!.html).toContain("/confirmations/");
    expect(Date.parse(newest!.sent_at)).toBeGreaterThanOrEqual(before);
    expect(newest!.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await server.deliverMail();
    const delivered = await mailJson();
    expect(delivered.slice(0, 2).map((mail) => mail.status)).toEqual(["sent", "sent"]);
    // What the preview shows is what the transport got.
    expect(mailer.last(second)?.text).toBe(newest!.text);
  });
});

describe("GET /dev/mail", () => {
  it("is a page in the app's layout listing each mail, linking to its HTML and text", async () => {
    const email = uniqueEmail();
    await signUp(email);
    await server.deliverMail();
    const list = await new Browser(server.url).get("/dev/mail");
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toMatch(/^text\/html/);
    expect(list.headers.get("content-security-policy")).toContain("script-src 'nonce-");
    expect(list.html).toContain('<main id="main">');
    expect(list.html).toContain('<th scope="col">Subject</th>');
    const text = pageText(list.html);
    expect(text).toContain(email);
    expect(text).toContain("Confirm your email address");
    const href = list.html.match(/<a href="(\/dev\/mail\/[^"]+)">Confirm your email address/)?.[1];
    expect(href).toBeDefined();

    const page = await new Browser(server.url).get(href!);
    expect(page.status).toBe(200);
    const frame = page.html.match(/<iframe [^>]*>/)?.[0] ?? "";
    expect(frame).toMatch(/sandbox="allow-popups allow-popups-to-escape-sandbox"/);
    expect(frame).not.toContain("allow-scripts");
    expect(frame).not.toContain("allow-same-origin");
    expect(frame).toContain('srcdoc="&lt;base target=&quot;_blank&quot;&gt;');
    const link = linkIn(mailer.last(email)!.text, "/confirmations").url;
    // The text part, with its link a link.
    expect(page.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it("answers 404 for a mail it does not hold", async () => {
    const response = await new Browser(server.url).get("/dev/mail/no-such-mail");
    expect(response.status).toBe(404);
  });
});

describe("in production", () => {
  it("answers 404 to /dev/mail and /dev/mail.json", async () => {
    const production = await startTestServer(
      {
        NODE_ENV: "production",
        TRUST_PROXY: "1",
        APP_URL: "https://app.example",
        ALLOWED_HOSTS: "127.0.0.1",
      },
      { mailer: new MemoryMailer() },
    );
    try {
      for (const path of ["/dev/mail", "/dev/mail.json", "/dev/mail/anything"]) {
        expect((await fetch(`${production.url}${path}`)).status).toBe(404);
      }
    } finally {
      await production.stop();
    }
  });
});
