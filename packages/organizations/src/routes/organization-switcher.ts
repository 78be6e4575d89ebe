import type { PageLink, PageMenu, RouteContext, RouteMiddleware } from "@tessera/http";
import type { OrganizationStore } from "../organization-store.js";
import { organizationMessages } from "./organization-messages.js";
import { ORGANIZATIONS_PAGE_PATH } from "./organization-pages.js";

/** The `id` of the header menu {@link organizationSwitcher} adds: a layout finds it by this. */
export const ORGANIZATION_SWITCHER_MENU = "organizations";

/** What {@link organizationSwitcher} is built from. */
export interface OrganizationSwitcherOptions {
  readonly organizations: OrganizationStore;
  /** The organization pages' path, as given to `organizationPages` (default `/orgs`). */
  readonly path?: string | undefined;
}

/** A request as the switcher reads it: its cookie session, and the menus added before it. */
export interface OrganizationSwitcherContext extends RouteContext {
  readonly session: { readonly userId: number | undefined };
  readonly headerMenus?: readonly PageMenu[] | undefined;
}

/**
 * A route middleware for pages that adds the organization switcher to the request's
 * `headerMenus` (which `sessionPageContext` hands to the layout as `PageContext.headerMenus`):
 * the signed-in user's organizations by name, each linking its page, the one the page is under
 * marked `current`, then a link to the organization list (where one is created). It reads them
 * for each request, with one query (`listForUser`), so a member removed meanwhile no longer sees
 * the organization at their next page and a new one shows at once. A visitor costs nothing and
 * gets no menu, and a request whose menus have it already is not read twice. Put it where the
 * cookie session is open (`openSession`), in front of the page groups, which reuse that session.
 */
export function organizationSwitcher<C extends OrganizationSwitcherContext>(
  options: OrganizationSwitcherOptions,
): RouteMiddleware<C, C> {
  const base = options.path ?? ORGANIZATIONS_PAGE_PATH;
  return (next) => async (request, context) => {
    const { userId } = context.session;
    const menus = context.headerMenus ?? [];
    if (userId === undefined || menus.some((menu) => menu.id === ORGANIZATION_SWITCHER_MENU)) {
      return next(request, context);
    }
    const memberships = await options.organizations.listForUser(userId);
    const shown = new URL(request.url).pathname;
    const link = (href: string, text: string, current: boolean): PageLink =>
      current ? { href, text, current } : { href, text };
    const text = organizationMessages.text.bind(organizationMessages, context.locale);
    const menu: PageMenu = {
      id: ORGANIZATION_SWITCHER_MENU,
      label: text("organizations.switcher_label"),
      links: [
        ...memberships.map(({ organization }) => {
          const href = `${base}/${organization.slug}`;
          return link(href, organization.name, shown === href || shown.startsWith(`${href}/`));
        }),
        link(base, text("organizations.switcher_all"), shown === base),
      ],
    };
    return next(request, { ...context, headerMenus: [...menus, menu] });
  };
}
