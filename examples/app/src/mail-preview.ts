import { cspNonce, type TesseraEnv } from "@tessera/hono";
import type { PageContext } from "@tessera/http";
import type { Outbox } from "@tessera/outbox";
import { optionalUser, sessionPageContext } from "@tessera/session";
import { cookieSession, type SessionEnv } from "@tessera/session/hono";
import type { Context } from "hono";
import type { AppHono } from "./accounts.js";
import { mailJson, previewedMail, previewedMails } from "./mail-previews.js";
import type { MountedService } from "./service.js";
import { renderMail, renderMailList } from "./views/mail-preview.js";

/**
 * The mail preview, for development: `GET /dev/mail` lists the mails of the outbox's `mail`
 * queue (newest first), `GET /dev/mail/{key}` shows one (HTML in a sandboxed frame, and text),
 * and `GET /dev/mail.json` gives the list to end-to-end tests. The caller mounts it outside
 * production only: the mails hold working sign-in and reset links.
 */
export function mountMailPreview(app: AppHono, outbox: Outbox<unknown>, service: MountedService) {
  const session = cookieSession(service.sessions);
  // In English only: a page for the app's developers, not its users.
  const pageContext = async (context: Context<TesseraEnv & SessionEnv>): Promise<PageContext> => {
    const session = context.get("session");
    const user = await optionalUser(session, service.findUser);
    return sessionPageContext({ session, cspNonce: cspNonce(context) }, user?.email);
  };
  app.get("/dev/mail.json", async (context) =>
    context.json((await previewedMails(outbox)).map(mailJson)),
  );
  app.get("/dev/mail", session, async (context) =>
    context.html(renderMailList(await previewedMails(outbox), await pageContext(context))),
  );
  app.get("/dev/mail/:key", session, async (context) => {
    const item = await outbox.find("mail", context.req.param("key"));
    const mail = item && previewedMail(item);
    if (!mail) return context.notFound();
    return context.html(renderMail(mail, await pageContext(context)));
  });
}
