import { systemClock } from "@tessera/core";
import { jsonAnswer, notFound, type RouteContext, type RouteHandler } from "@tessera/http";
import { OWNER_ROLE } from "../roles.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext, OrganizationUserContext } from "./organization-context.js";
import { organizationCreator } from "./organization-creation.js";
import { organizationDeleter } from "./organization-deletion.js";
import { fieldRefusal } from "./organization-fields.js";
import { organizationWithRoleJson } from "./organization-json.js";
import type { OrganizationRoutesOptions } from "./organization-routes-options.js";
import { organizationUpdater } from "./organization-update.js";

/** The routes of the organizations themselves: the user's list, create; show, change, delete one. */
export function organizationHandlers<C extends RouteContext>(
  options: OrganizationRoutesOptions<C>,
) {
  const store = options.organizations;
  const create = organizationCreator(store, options.clock ?? systemClock, options.audit);
  const update = organizationUpdater(store);
  const deleteOrganization = organizationDeleter(options);

  const signedIn = {
    async list(_request, { user, locale }) {
      const memberships = await store.listForUser(user.id);
      const answer = memberships.map(({ organization, role }) =>
        organizationWithRoleJson(organization, role),
      );
      return jsonAnswer(answer, { locale });
    },

    async create(request, { user, locale, clientAddress }) {
      const body = await readTextBody(request, ["name", "slug"], locale);
      if (!body.ok) return body.response;
      const written = { name: body.values.name, slug: body.values.slug };
      const created = await create(user.id, written, { request, clientAddress });
      if (!created.ok) return fieldRefusal(created.fields, locale);
      const answer = organizationWithRoleJson(created.organization, OWNER_ROLE);
      return jsonAnswer(answer, { status: 201, locale });
    },
  } satisfies Record<string, RouteHandler<OrganizationUserContext<C>>>;

  const member = {
    async show(_request, { organization, role, locale }) {
      return jsonAnswer(organizationWithRoleJson(organization, role), { locale });
    },

    async update(request, { organization, role, locale }) {
      const body = await readTextBody(request, ["name", "slug"], locale);
      if (!body.ok) return body.response;
      const updated = await update(organization, body.values);
      if (updated.ok) {
        return jsonAnswer(organizationWithRoleJson(updated.organization, role), { locale });
      }
      return "fields" in updated ? fieldRefusal(updated.fields, locale) : notFound(locale);
    },

    async remove(request, { organization, user, locale, clientAddress }) {
      const deleted = await deleteOrganization(organization, user.id, { request, clientAddress });
      return deleted ? new Response(null, { status: 204 }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;

  return { signedIn, member };
}
