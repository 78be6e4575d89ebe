import { checkApiKeyName } from "@tessera/bearer";
import { systemClock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import {
  jsonAnswer,
  NO_STORE,
  notFound,
  pathId,
  type RouteContext,
  type RouteHandler,
} from "@tessera/http";
import { recordOrganizationEvent } from "./organization-audit.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext } from "./organization-context.js";
import { organizationErrorAnswer, organizationErrors } from "./organization-errors.js";
import { addProblem, type FieldErrors, fieldRefusal, roleProblem } from "./organization-fields.js";
import { organizationKeyJson } from "./organization-json.js";
import { ORGANIZATION_KEY_PREFIX } from "./organization-key-authentication.js";
import { rolesOf } from "./organization-member.js";
import type { OrganizationRoutesOptions } from "./organization-routes-options.js";

/**
 * The routes of an organization's keys (service accounts), for members with `keys:manage`:
 * make one with a role no greater than one's own (its secret answered this once, only its
 * digest kept), list them, revoke one.
 */
export function keyHandlers<C extends RouteContext>(options: OrganizationRoutesOptions<C>) {
  const store = options.organizations;
  const roles = rolesOf(options);
  const clock = options.clock ?? systemClock;

  return {
    async create(request, { organization, user, role: actorRole, locale, clientAddress }) {
      const body = await readTextBody(request, ["name", "role"], locale);
      if (!body.ok) return body.response;
      const fields: FieldErrors = {};
      const name = checkApiKeyName(body.values.name);
      if (!name.ok) fields.name = [...name.fields.name];
      addProblem(fields, "role", roleProblem(body.values.role, roles));
      if (!name.ok || fields.role) return fieldRefusal(fields, locale);
      const role = body.values.role as string; // roleProblem refuses a missing one
      // A key may do no more than its maker: no way around one's own role.
      if (!roles.grantableBy(role, actorRole)) {
        return organizationErrorAnswer(organizationErrors.roleNotGrantable, locale, { role });
      }
      const secret = `${ORGANIZATION_KEY_PREFIX}${randomToken()}`;
      const key = await store.createKey({
        organizationId: organization.id,
        name: name.value,
        role,
        digest: sha256Hex(secret),
        createdBy: user.id,
        now: clock(),
      });
      await recordOrganizationEvent(
        options.audit,
        "organization.key_created",
        user.id,
        { request, clientAddress },
        organization,
        { details: { key_id: key.id, name: key.name, role } },
      );
      const answer = { key: secret, api_key: organizationKeyJson(key) };
      return jsonAnswer(answer, { status: 201, locale, headers: NO_STORE });
    },

    async list(_request, { organization, locale }) {
      const keys = await store.listKeys(organization.id);
      return jsonAnswer(keys.map(organizationKeyJson), { locale });
    },

    async revoke(request, { organization, user, params, locale, clientAddress }) {
      const id = pathId(params.id);
      if (id === undefined || !(await store.deleteKey(organization.id, id))) {
        return notFound(locale);
      }
      await recordOrganizationEvent(
        options.audit,
        "organization.key_deleted",
        user.id,
        { request, clientAddress },
        organization,
        { details: { key_id: id } },
      );
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;
}
