import { API_KEY_NAME_MAX_LENGTH } from "@tessera/bearer";
import { httpMessages, OPENAPI_TIMESTAMP } from "@tessera/http";
import { MAXIMUM_ORGANIZATION_BODY_BYTES } from "./organization-body.js";
import { MAXIMUM_ORGANIZATION_NAME_LENGTH } from "./organization-fields.js";
import { ORGANIZATION_WRITE_RATE_LIMIT } from "./organization-routes-options.js";

/** An OpenAPI object as plain data. */
type OpenApiObject = Readonly<Record<string, unknown>>;

/** The parts of an OpenAPI 3.1 document that describe the organization routes. */
export interface OrganizationOpenApi {
  readonly tag: OpenApiObject;
  /** Path items of `/api/orgs…` and `/api/invitations/{token}/accept`. */
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  /** `components.schemas` entries they refer to. */
  readonly schemas: Readonly<Record<string, OpenApiObject>>;
  /** `components.responses` entries of their own refusals. */
  readonly responses: Readonly<Record<string, OpenApiObject>>;
  /**
   * What every route another package serves under `/api/orgs/{slug}` has (an organization's
   * records, its webhook endpoints): the `slug` path parameter, and the 403 of a role without
   * the route's permission and the 404 of a non-member. Give them to that package's document.
   */
  readonly organizationScoped: {
    readonly parameters: readonly OpenApiObject[];
    readonly responses: Readonly<Record<string, OpenApiObject>>;
  };
}

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });
const json = (schema: OpenApiObject) => ({ content: { "application/json": { schema } } });
const ID = { type: "integer", minimum: 1 };
const SLUG = {
  type: "string",
  pattern: "^[a-z0-9](?:-?[a-z0-9])+$",
  minLength: 3,
  maxLength: 40,
  description:
    "Lower-case letters, digits and single hyphens inside; not a reserved word (`new`, `api`, `admin`…).",
};
const NAME = { type: "string", minLength: 1, maxLength: MAXIMUM_ORGANIZATION_NAME_LENGTH };
const ROLE = {
  type: "string",
  description: "A role of the app: `owner`, `admin`, `member`, `viewer`, or one of its own.",
};

const SLUG_PARAMETER = {
  name: "slug",
  in: "path",
  required: true,
  description:
    "The organization's slug. One you are not a member of is a 404, as one that does not exist.",
  schema: { type: "string" },
};
const pathId = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: ID,
});

/** The common answers, as the record document's `components.responses` names them. */
const answer = {
  badRequest: ref("responses", "BadRequest"),
  unauthorized: ref("responses", "Unauthorized"),
  notFound: ref("responses", "NotFound"),
  validationFailed: ref("responses", "ValidationFailed"),
  forbidden: ref("responses", "OrganizationForbidden"),
  lastOwner: ref("responses", "LastOwner"),
  rateLimited: ref("responses", "OrganizationRateLimited"),
  notSent: ref("responses", "InvitationNotSent"),
};

/** A write's operation: with a body (`body` names its schema) its 400, and always 401 and 429. */
function write(
  operation: OpenApiObject & { responses: Record<string, unknown> },
  body?: string,
): OpenApiObject {
  return {
    tags: ["organizations"],
    ...operation,
    ...(body ? { requestBody: { required: true, ...json(ref("schemas", body)) } } : {}),
    responses: {
      ...operation.responses,
      ...(body ? { "400": answer.badRequest } : {}),
      "401": answer.unauthorized,
      "429": answer.rateLimited,
    },
  };
}

/** A read's operation: and its 401. */
function read(operation: OpenApiObject & { responses: Record<string, unknown> }): OpenApiObject {
  return {
    tags: ["organizations"],
    ...operation,
    responses: { ...operation.responses, "401": answer.unauthorized },
  };
}

const errorAnswer = (description: string, status: number, code: string, message: string) => ({
  description,
  content: {
    "application/json": {
      schema: ref("schemas", "Error"),
      example: { error: { code, message, status } },
    },
  },
});

/**
 * The organization routes as OpenAPI 3.1 parts, to merge into a document that has the record
 * routes' `components` (the `Error` and `ValidationError` schemas, the `BadRequest`,
 * `Unauthorized`, `NotFound` and `ValidationFailed` responses): `openApiDocument` of
 * `@tessera/records` makes one. Every route takes a bearer token.
 */
export function organizationOpenApi(): OrganizationOpenApi {
  const organization = ref("schemas", "Organization");
  const member = ref("schemas", "OrganizationMember");
  const invitation = ref("schemas", "OrganizationInvitation");
  const key = ref("schemas", "OrganizationKey");
  const slug = [SLUG_PARAMETER];
  return {
    tag: {
      name: "organizations",
      description:
        "Organizations, their members and roles, invitations by email, and keys acting as the organization. Every route of an organization is a 404 to a non-member, as for none; a member whose role lacks the route's permission gets a 403 naming it.",
    },
    paths: {
      "/api/orgs": {
        get: read({
          operationId: "listOrganizations",
          summary: "Your organizations, with your role, by name",
          responses: {
            "200": {
              description: "The organizations.",
              ...json({ type: "array", items: organization }),
            },
          },
        }),
        post: write(
          {
            operationId: "createOrganization",
            summary: "Create an organization: you are its owner",
            responses: {
              "201": {
                description: "The organization, with `role: owner`.",
                ...json(organization),
              },
              "422": answer.validationFailed,
            },
          },
          "OrganizationCreate",
        ),
      },
      "/api/orgs/{slug}": {
        parameters: slug,
        get: read({
          operationId: "getOrganization",
          summary: "One of your organizations, with your role",
          responses: {
            "200": { description: "The organization.", ...json(organization) },
            "404": answer.notFound,
          },
        }),
        patch: write(
          {
            operationId: "updateOrganization",
            summary: "Rename it or change its slug (`organization:update`)",
            responses: {
              "200": { description: "The organization.", ...json(organization) },
              "403": answer.forbidden,
              "404": answer.notFound,
              "422": answer.validationFailed,
            },
          },
          "OrganizationChange",
        ),
        delete: write({
          operationId: "deleteOrganization",
          summary: "Delete it, with its members, invitations and records (`organization:delete`)",
          responses: {
            "204": { description: "Deleted." },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
      },
      "/api/orgs/{slug}/members": {
        parameters: slug,
        get: read({
          operationId: "listOrganizationMembers",
          summary: "The members, by the time they joined",
          responses: {
            "200": { description: "The members.", ...json({ type: "array", items: member }) },
            "404": answer.notFound,
          },
        }),
      },
      "/api/orgs/{slug}/members/{user_id}": {
        parameters: [...slug, pathId("user_id", "The member's user id.")],
        patch: write(
          {
            operationId: "changeOrganizationMemberRole",
            summary: "Give a member another role (`members:change_role`, no greater than yours)",
            responses: {
              "200": { description: "The member.", ...json(member) },
              "403": answer.forbidden,
              "404": answer.notFound,
              "409": answer.lastOwner,
              "422": answer.validationFailed,
            },
          },
          "OrganizationRoleChange",
        ),
        delete: write({
          operationId: "removeOrganizationMember",
          summary: "Remove a member (`members:remove`), or leave (your own id)",
          responses: {
            "204": { description: "Removed." },
            "403": answer.forbidden,
            "404": answer.notFound,
            "409": answer.lastOwner,
          },
        }),
      },
      "/api/orgs/{slug}/invitations": {
        parameters: slug,
        get: read({
          operationId: "listOrganizationInvitations",
          summary: "The pending invitations, newest first (`members:invite`)",
          responses: {
            "200": {
              description: "The invitations.",
              ...json({ type: "array", items: invitation }),
            },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
        post: write(
          {
            operationId: "inviteToOrganization",
            summary:
              "Invite an address with a role no greater than yours (`members:invite`): the mail `You're invited to join <name>` links to `/invitations/<token>`, valid 7 days",
            responses: {
              "201": { description: "The invitation (never its token).", ...json(invitation) },
              "403": answer.forbidden,
              "404": answer.notFound,
              "422": answer.validationFailed,
              "503": answer.notSent,
            },
          },
          "OrganizationInvitationCreate",
        ),
      },
      "/api/orgs/{slug}/invitations/{id}": {
        parameters: [...slug, pathId("id", "The invitation's id.")],
        delete: write({
          operationId: "revokeOrganizationInvitation",
          summary: "Revoke a pending invitation: its link stops working (`members:invite`)",
          responses: {
            "204": { description: "Revoked." },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
      },
      "/api/orgs/{slug}/keys": {
        parameters: slug,
        get: read({
          operationId: "listOrganizationKeys",
          summary: "The organization's keys, newest first, never their secrets (`keys:manage`)",
          responses: {
            "200": { description: "The keys.", ...json({ type: "array", items: key }) },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
        post: write(
          {
            operationId: "createOrganizationKey",
            summary:
              "Make a key acting as the organization with a role no greater than yours (`keys:manage`): its secret is in this answer only. It is taken by the organization's record and webhook endpoint routes, and by nothing else",
            responses: {
              "201": {
                description: "The secret (`org_` and 43 characters) and the key.",
                ...json({
                  type: "object",
                  properties: {
                    key: { type: "string", pattern: "^org_[A-Za-z0-9_-]{43}$" },
                    api_key: key,
                  },
                  required: ["key", "api_key"],
                  additionalProperties: false,
                }),
              },
              "403": answer.forbidden,
              "404": answer.notFound,
              "422": answer.validationFailed,
            },
          },
          "OrganizationKeyCreate",
        ),
      },
      "/api/orgs/{slug}/keys/{id}": {
        parameters: [...slug, pathId("id", "The key's id.")],
        delete: write({
          operationId: "revokeOrganizationKey",
          summary: "Revoke a key: its next request is a 401 (`keys:manage`)",
          responses: {
            "204": { description: "Revoked." },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
      },
      "/api/invitations/{token}/accept": {
        parameters: [
          {
            name: "token",
            in: "path",
            required: true,
            description: "The token of the invitation mail's link.",
            schema: { type: "string" },
          },
        ],
        post: write({
          operationId: "acceptOrganizationInvitation",
          summary:
            "Join with the invitation's role: your confirmed address must be the invited one",
          responses: {
            "200": {
              description: "The membership.",
              ...json({
                type: "object",
                properties: { organization: ref("schemas", "OrganizationWithoutRole"), role: ROLE },
                required: ["organization", "role"],
                additionalProperties: false,
              }),
            },
            "403": answer.forbidden,
            "404": answer.notFound,
          },
        }),
      },
    },
    organizationScoped: {
      parameters: [SLUG_PARAMETER],
      responses: { "403": answer.forbidden, "404": answer.notFound },
    },
    schemas: {
      Organization: {
        type: "object",
        properties: { id: ID, name: NAME, slug: SLUG, role: ROLE, created_at: OPENAPI_TIMESTAMP },
        required: ["id", "name", "slug", "role", "created_at"],
        additionalProperties: false,
      },
      OrganizationWithoutRole: {
        type: "object",
        properties: { id: ID, name: NAME, slug: SLUG, created_at: OPENAPI_TIMESTAMP },
        required: ["id", "name", "slug", "created_at"],
        additionalProperties: false,
      },
      OrganizationCreate: {
        type: "object",
        properties: {
          name: NAME,
          slug: { ...SLUG, description: `${SLUG.description} Made from the name when left out.` },
        },
        required: ["name"],
        additionalProperties: false,
        description: `At most ${MAXIMUM_ORGANIZATION_BODY_BYTES} bytes; an unknown key, a value that is not text or a NUL is a 400 naming the field.`,
      },
      OrganizationChange: {
        type: "object",
        properties: { name: NAME, slug: SLUG },
        additionalProperties: false,
      },
      OrganizationMember: {
        type: "object",
        properties: {
          user_id: ID,
          email: { type: "string" },
          name: { type: ["string", "null"] },
          role: ROLE,
          joined_at: OPENAPI_TIMESTAMP,
        },
        required: ["user_id", "email", "name", "role", "joined_at"],
        additionalProperties: false,
      },
      OrganizationRoleChange: {
        type: "object",
        properties: { role: ROLE },
        required: ["role"],
        additionalProperties: false,
      },
      OrganizationInvitation: {
        type: "object",
        properties: {
          id: ID,
          email: { type: "string" },
          role: ROLE,
          expires_at: OPENAPI_TIMESTAMP,
          created_at: OPENAPI_TIMESTAMP,
        },
        required: ["id", "email", "role", "expires_at", "created_at"],
        additionalProperties: false,
      },
      OrganizationKey: {
        type: "object",
        properties: {
          id: ID,
          name: { type: "string", minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH },
          role: ROLE,
          created_by: {
            ...ID,
            type: ["integer", "null"],
            description: "Null once its maker's account is deleted.",
          },
          last_used_at: { ...OPENAPI_TIMESTAMP, type: ["string", "null"] },
          created_at: OPENAPI_TIMESTAMP,
        },
        required: ["id", "name", "role", "created_by", "last_used_at", "created_at"],
        additionalProperties: false,
      },
      OrganizationKeyCreate: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH },
          role: ROLE,
        },
        required: ["name", "role"],
        additionalProperties: false,
      },
      OrganizationInvitationCreate: {
        type: "object",
        properties: { email: { type: "string" }, role: ROLE },
        required: ["email", "role"],
        additionalProperties: false,
      },
    },
    responses: {
      OrganizationForbidden: errorAnswer(
        "A role without the route's permission (`forbidden`, naming it), a role greater than yours to give or take (`role_not_grantable`), or an invitation for another or an unconfirmed address (`invitation_email_mismatch`).",
        403,
        "forbidden",
        "You need the members:invite permission.",
      ),
      LastOwner: errorAnswer(
        "The change would leave the organization without an owner.",
        409,
        "last_owner",
        "An organization needs an owner: make another member an owner before this one leaves or changes role.",
      ),
      OrganizationRateLimited: {
        ...errorAnswer(
          `More than ${ORGANIZATION_WRITE_RATE_LIMIT.limit} writes a minute by one user.`,
          429,
          "rate_limited",
          httpMessages.english["http.rate_limited"],
        ),
        headers: {
          "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } },
        },
      },
      InvitationNotSent: errorAnswer(
        "The invitation mail could not be handed over: the invitation is revoked.",
        503,
        "unavailable",
        "The invitation mail could not be sent: try again later.",
      ),
    },
  };
}
