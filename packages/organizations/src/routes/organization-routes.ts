import { configurationError, requireFunctionOption, requireObjectOption } from "@tessera/core";
import {
  authenticated,
  bodyLimit,
  JSON_BODY_FAILURE_PREFIX,
  jsonError,
  type Route,
  type RouteContext,
  type RouteHandler,
  type RouteMethod,
  type RouteMiddleware,
  rateLimit,
  withMiddleware,
} from "@tessera/http";
import type { Permission } from "../roles.js";
import { invitationHandlers } from "./invitation-handlers.js";
import { keyHandlers } from "./key-handlers.js";
import { memberHandlers } from "./member-handlers.js";
import { MAXIMUM_ORGANIZATION_BODY_BYTES } from "./organization-body.js";
import type {
  OrganizationMemberContext,
  OrganizationUser,
  OrganizationUserContext,
} from "./organization-context.js";
import { organizationHandlers } from "./organization-handlers.js";
import { organizationMember } from "./organization-member.js";
import {
  ORGANIZATION_WRITE_RATE_LIMIT,
  type OrganizationRoutesOptions,
} from "./organization-routes-options.js";

const STORE_METHODS = [
  "createOrganization",
  "findMembership",
  "listForUser",
  "updateOrganization",
  "deleteOrganization",
  "listMembers",
  "changeRole",
  "removeMember",
  "createInvitation",
  "listInvitations",
  "revokeInvitation",
  "acceptInvitation",
  "findInvitation",
  "createKey",
  "listKeys",
  "deleteKey",
  "findKeyHolder",
  "touchKey",
];

/** Throws a configuration TypeError for a missing store, mailer or `authenticate`, or a bad `appUrl`. */
function checkOptions(options: OrganizationRoutesOptions<never>): void {
  const fn = "organizationRoutes";
  requireObjectOption(fn, options, "organizations", STORE_METHODS, "pass an OrganizationStore");
  requireObjectOption(fn, options, "mailer", ["send"], "pass the app's Mailer");
  requireFunctionOption(fn, options, "authenticate", "pass the bearer authentication");
  if (options.appUrl === undefined) return;
  let protocol: string | undefined;
  try {
    protocol = new URL(options.appUrl).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw configurationError(fn, "appUrl", "is not an http(s) URL", "pass APP_URL");
  }
}

/**
 * The JSON routes of organizations, for bearer-authenticated users:
 * `/api/orgs` (list, create), `/api/orgs/:slug` (show, change, delete), its `members` (list,
 * change a role, remove or leave), `invitations` (send by mail, list, revoke) and `keys` (make,
 * list, revoke; see `organizationCallers` for where the keys are taken), and
 * `POST /api/invitations/:token/accept`. Every route of an organization passes
 * {@link organizationMember}: a 404 for a non-member as for no such organization, a 403 naming
 * the permission a member's role lacks.
 * @throws {TypeError} for a missing store, mailer or `authenticate`, or an `appUrl` that is not http(s).
 */
export function organizationRoutes<C extends RouteContext = RouteContext>(
  options: OrganizationRoutesOptions<C>,
): Route<C>[] {
  checkOptions(options as OrganizationRoutesOptions<never>);
  type UserContext = OrganizationUserContext<C>;
  type MemberContext = OrganizationMemberContext<C>;
  const organizations = organizationHandlers(options);
  const members = memberHandlers(options);
  const invitations = invitationHandlers(options);
  const keys = keyHandlers(options);

  /** A route of the path's organization, for members whose role has `permission`. */
  const ofMember = (
    method: RouteMethod,
    path: string,
    permission: Permission | undefined,
    handle: RouteHandler<MemberContext>,
  ): Route<UserContext> => {
    const [route] = withMiddleware<UserContext, MemberContext>(
      [{ method, path, handle }],
      organizationMember<UserContext>(options, permission),
    );
    return route as Route<UserContext>;
  };

  const signedIn = authenticated<{ readonly user: OrganizationUser }, C>(options.authenticate);
  const limiter = options.rateLimiter;
  const perUser: RouteMiddleware<UserContext, UserContext> = limiter
    ? rateLimit<UserContext>({
        limiter,
        group: ORGANIZATION_WRITE_RATE_LIMIT.group,
        key: (_request, { user }) => `user:${user.id}`,
      })
    : (next) => next;
  const limitedBody = bodyLimit<UserContext>({
    maximumBytes: MAXIMUM_ORGANIZATION_BODY_BYTES,
    // The words readJsonBody answers with, for a body whose declared length is already too large.
    refusal: (_request, { locale }, maximumBytes) =>
      jsonError(400, `${JSON_BODY_FAILURE_PREFIX}the body is larger than ${maximumBytes} bytes`, {
        locale,
      }),
  });

  const org = "/api/orgs/:slug";
  const reads: Route<UserContext>[] = [
    { method: "GET", path: "/api/orgs", handle: organizations.signedIn.list },
    ofMember("GET", org, undefined, organizations.member.show),
    ofMember("GET", `${org}/members`, undefined, members.list),
    ofMember("GET", `${org}/invitations`, "members:invite", invitations.member.list),
    ofMember("GET", `${org}/keys`, "keys:manage", keys.list),
  ];
  const writes: Route<UserContext>[] = [
    { method: "POST", path: "/api/orgs", handle: organizations.signedIn.create },
    ofMember("PATCH", org, "organization:update", organizations.member.update),
    ofMember("DELETE", org, "organization:delete", organizations.member.remove),
    ofMember("PATCH", `${org}/members/:user_id`, "members:change_role", members.changeRole),
    // No permission here: leaving is anyone's, removing another needs `members:remove`.
    ofMember("DELETE", `${org}/members/:user_id`, undefined, members.remove),
    ofMember("POST", `${org}/invitations`, "members:invite", invitations.member.create),
    ofMember("DELETE", `${org}/invitations/:id`, "members:invite", invitations.member.revoke),
    ofMember("POST", `${org}/keys`, "keys:manage", keys.create),
    ofMember("DELETE", `${org}/keys/:id`, "keys:manage", keys.revoke),
    {
      method: "POST",
      path: "/api/invitations/:token/accept",
      handle: invitations.signedIn.accept,
    },
  ];
  return [
    ...withMiddleware(reads, signedIn),
    // Who first: a request without credentials is a 401 and counts against no one.
    ...withMiddleware(writes, signedIn, perUser, limitedBody),
  ];
}
