import { systemClock } from "@tessera/core";
import { jsonAnswer, notFound, type RouteContext, type RouteHandler } from "@tessera/http";
import type { OrganizationChange } from "../organization-store.js";
import { OWNER_ROLE } from "../roles.js";
import { recordOrganizationEvent } from "./organization-audit.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext, OrganizationUserContext } from "./organization-context.js";
import { organizationCreator } from "./organization-creation.js";
import {
  addProblem,
  type FieldErrors,
  fieldRefusal,
  nameProblem,
  TAKEN,
  writtenSlugProblem,
} from "./organization-fields.js";
import { organizationWithRoleJson } from "./organization-json.js";
import type { OrganizationRoutesOptions } from "./organization-routes-options.js";

/** A change's `name` and `slug`, checked: trimmed name, and the 422 of what is wrong. */
async function readNameAndSlug(request: Request, context: RouteContext) {
  const body = await readTextBody(request, ["name", "slug"], context.locale);
  if (!body.ok) return body;
  const name = body.values.name?.trim();
  const { slug } = body.values;
  const fields: FieldErrors = {};
  if (name !== undefined) addProblem(fields, "name", nameProblem(name));
  if (slug !== undefined) addProblem(fields, "slug", writtenSlugProblem(slug));
  if (Object.keys(fields).length > 0) {
    return { ok: false as const, response: fieldRefusal(fields, context.locale) };
  }
  return { ok: true as const, name, slug };
}

/** The routes of the organizations themselves: the user's list, create; show, change, delete one. */
export function organizationHandlers<C extends RouteContext>(
  options: OrganizationRoutesOptions<C>,
) {
  const store = options.organizations;
  const create = organizationCreator(store, options.clock ?? systemClock, options.audit);

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

    async update(request, context) {
      const { organization, role, locale } = context;
      const body = await readNameAndSlug(request, context);
      if (!body.ok) return body.response;
      const change: OrganizationChange = {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.slug === undefined ? {} : { slug: body.slug }),
      };
      if (change.name === undefined && change.slug === undefined) {
        return jsonAnswer(organizationWithRoleJson(organization, role), { locale });
      }
      const updated = await store.updateOrganization(organization.id, change);
      if (updated === "slug_taken") return fieldRefusal({ slug: [TAKEN] }, locale);
      if (updated === undefined) return notFound(locale);
      return jsonAnswer(organizationWithRoleJson(updated, role), { locale });
    },

    async remove(request, { organization, user, locale, clientAddress }) {
      // The app's rows first: should that fail, the organization stays to be deleted again,
      // rather than leave rows behind that nobody can reach (or a later organization given
      // the same id would inherit).
      await options.beforeOrganizationDeleted?.(organization);
      const deleted = await store.deleteOrganization(organization.id);
      if (!deleted) return notFound(locale);
      const at = { request, clientAddress };
      await recordOrganizationEvent(
        options.audit,
        "organization.deleted",
        user.id,
        at,
        organization,
      );
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;

  return { signedIn, member };
}
