import { DEFAULT_MAXIMUM_BODY_BYTES, htmlPage, readFormBody } from "@tessera/http";
import { accountMessages } from "../account-messages.js";
import type { UserStore } from "../users/user-store.js";
import { accountPageContext, currentPageUser } from "./account-page-context.js";
import type { AccountPages } from "./account-pages.js";
import type { HtmlRequestContext } from "./html-routes-options.js";

const FORM_MEGABYTES = DEFAULT_MAXIMUM_BODY_BYTES / (1024 * 1024);

/**
 * The form's values, or the page that refuses a body which is not one: 413 over the size cap,
 * else 400. A browser sends neither, but the answer is still a page, as on every HTML route
 * (the JSON envelope would show a person raw JSON).
 */
export async function readAccountForm(
  request: Request,
  context: HtmlRequestContext,
  parts: { readonly pages: AccountPages; readonly users: UserStore },
): Promise<{ ok: true; value: URLSearchParams } | { ok: false; response: Response }> {
  const form = await readFormBody(request);
  if (form.ok) return form;
  const tooLarge = form.reason === "too-large";
  const user = await currentPageUser(context, parts.users);
  const { locale } = context;
  const page = parts.pages.unreadableForm({
    context: accountPageContext(context, user),
    title: accountMessages.text(
      locale,
      tooLarge ? "accounts.form_too_large_title" : "accounts.bad_request_title",
    ),
    message: tooLarge
      ? accountMessages.text(locale, "accounts.form_too_large", { megabytes: FORM_MEGABYTES })
      : accountMessages.text(locale, "accounts.unreadable_form"),
  });
  return { ok: false, response: htmlPage(tooLarge ? 413 : 400, page) };
}
