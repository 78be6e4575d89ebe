import { html } from "@tessera/core";
import { type Authenticate, errorEnvelopeMessage, htmlPage, type Layout } from "@tessera/http";
import { type HtmlRouteContext, sessionPageContext } from "@tessera/session";
import { outboundMessages } from "./outbound-messages.js";

/** What the page of an owner resolver's refusal is written with. */
export interface OwnerRefusalPageOptions {
  readonly layout: Layout;
  /** Who is signed in, for the page's header; without it, a visitor's header. */
  readonly signedIn?:
    | Authenticate<{ readonly user: { readonly email: string } }, HtmlRouteContext>
    | undefined;
}

/**
 * An owner resolver's refusal as the webhooks page answers it: a redirect (to sign in) as it
 * is; an error, a JSON envelope (an organization's 404 to a non-member, its 403 naming the
 * permission), as a page of the same status in the app's layout, titled as the webhooks page,
 * with the envelope's message as its alert.
 */
export async function ownerRefusalPage(
  refusal: Response,
  request: Request,
  context: HtmlRouteContext,
  options: OwnerRefusalPageOptions,
): Promise<Response> {
  if (refusal.status < 400) return refusal;
  const message = await errorEnvelopeMessage(refusal);
  if (message !== "") context.session.flash("alert", message);
  const who = options.signedIn ? await options.signedIn(request, context) : undefined;
  const title = outboundMessages.text(context.locale, "outbound.page_title");
  const page = options.layout({
    title,
    mainHtml: html`<h1>${title}</h1>`.toString(),
    context: sessionPageContext(context, who?.ok ? who.value.user.email : undefined),
  });
  return htmlPage(refusal.status, page);
}
