// A new user of the running app, made in a browser's shoes: signed up, the address confirmed
// through the mailed link, then signed out.
import type { MemoryMailer } from "@tessera/mail";
import { expect } from "vitest";
import { Browser, linkIn } from "./browser.js";
import type { TestServer } from "./test-server.js";

/** A browser of a new user named after `name` who confirmed their address; not signed in. */
export async function confirmedVisitor(
  server: Pick<TestServer, "url" | "deliverMail">,
  mailer: MemoryMailer,
  name: string,
  password: string,
): Promise<{ browser: Browser; email: string }> {
  const email = `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const browser = new Browser(server.url);
  expect((await browser.post("/signup", { email, password })).status).toBe(303);
  await server.deliverMail();
  const confirmation = linkIn(mailer.last(email)!.text, "/confirmations");
  expect((await browser.post(confirmation.path)).status).toBe(303);
  await browser.post("/logout");
  return { browser: new Browser(server.url), email };
}
