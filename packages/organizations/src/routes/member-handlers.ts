import type { Locale } from "@tessera/core";
import { jsonAnswer, notFound, pathId, type RouteContext, type RouteHandler } from "@tessera/http";
import type { Organization } from "../organization.js";
import type { MemberChangeRefusal } from "../organization-store.js";
import { actionableMember } from "./actionable-member.js";
import { memberChanges } from "./member-changes.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext } from "./organization-context.js";
import { organizationErrorAnswer, organizationErrors } from "./organization-errors.js";
import { fieldRefusal, roleProblem } from "./organization-fields.js";
import { memberJson } from "./organization-json.js";
import { permissionRefusal, rolesOf } from "./organization-member.js";
import type { OrganizationRoutesOptions } from "./organization-routes-options.js";

/** The answer to a refused role change or removal. */
function changeRefusal(refusal: MemberChangeRefusal, locale: Locale | undefined): Response {
  return refusal === "last_owner"
    ? organizationErrorAnswer(organizationErrors.lastOwner, locale)
    : notFound(locale);
}

/** The routes of an organization's members: the list, a role change, a removal or a leave. */
export function memberHandlers<C extends RouteContext>(options: OrganizationRoutesOptions<C>) {
  const store = options.organizations;
  const roles = rolesOf(options);
  const changes = memberChanges(options);

  /** The member the path names, when the actor's role may act on theirs; else the refusal. */
  async function target(organization: Organization, actorRole: string, context: RouteContext) {
    const { locale } = context;
    const found = await actionableMember(
      store,
      roles,
      organization,
      actorRole,
      context.params.user_id,
    );
    if (found.ok) return found;
    const response =
      found.reason === "not_found"
        ? notFound(locale)
        : organizationErrorAnswer(organizationErrors.roleNotGrantable, locale, {
            role: found.role,
          });
    return { ok: false as const, response };
  }

  return {
    async list(_request, { organization, locale }) {
      const members = await store.listMembers(organization.id);
      return jsonAnswer(members.map(memberJson), { locale });
    },

    async changeRole(request, context) {
      const { organization, user, role: actorRole, locale } = context;
      if (pathId(context.params.user_id) === undefined) return notFound(locale);
      const body = await readTextBody(request, ["role"], locale);
      if (!body.ok) return body.response;
      const problem = roleProblem(body.values.role, roles);
      if (problem !== undefined) return fieldRefusal({ role: [problem] }, locale);
      const role = body.values.role as string; // roleProblem refuses a missing one
      if (!roles.grantableBy(role, actorRole)) {
        return organizationErrorAnswer(organizationErrors.roleNotGrantable, locale, { role });
      }
      const found = await target(organization, actorRole, context);
      if (!found.ok) return found.response;
      const at = { request, clientAddress: context.clientAddress };
      const changed = await changes.changeRole(organization, found.member, role, user.id, at);
      if (typeof changed === "string") return changeRefusal(changed, locale);
      return jsonAnswer(memberJson(changed), { locale });
    },

    async remove(request, context) {
      const { organization, user, role: actorRole, locale } = context;
      const userId = pathId(context.params.user_id);
      if (userId === undefined) return notFound(locale);
      // Leaving needs no permission: anyone may go, save the last owner.
      if (userId !== user.id) {
        if (!roles.allows(actorRole, "members:remove")) {
          return permissionRefusal("members:remove", locale);
        }
        const found = await target(organization, actorRole, context);
        if (!found.ok) return found.response;
      }
      const at = { request, clientAddress: context.clientAddress };
      const removed = await changes.remove(organization, userId, user.id, at);
      if (removed !== true) return changeRefusal(removed, locale);
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;
}
