// The schemas of the admin routes' OpenAPI part: a user as `adminUserJson` writes it, the same
// with the facts `GET /api/admin/users/{id}` adds (`loadUserFacts`), and the ban's body as
// `checkBanRequest` reads it.
import { OPENAPI_TIMESTAMP, type OpenApiObject, openApiRef } from "@tessera/http";
import { AUDIT_EVENT } from "../audit/activity-openapi.js";
import type { OperatorColumn } from "../profile/operator-columns.js";
import { MAXIMUM_BAN_REASON_LENGTH } from "./user-moderation.js";

/** Names of the admin part's `components.schemas`. */
export const ADMIN_SCHEMAS = {
  user: "AdminUser",
  userDetails: "AdminUserDetails",
  ban: "AdminBan",
} as const;

const COUNT: OpenApiObject = { type: "integer", minimum: 0 };
const NULLABLE_TIMESTAMP: OpenApiObject = { ...OPENAPI_TIMESTAMP, type: ["string", "null"] };

/** The ban of a user as the admin routes show it, or null. */
const BAN: OpenApiObject = {
  type: ["object", "null"],
  description: "The user's ban while one is recorded (lifted: null); it may have ended.",
  properties: {
    reason: { type: "string", minLength: 1, maxLength: MAXIMUM_BAN_REASON_LENGTH },
    at: OPENAPI_TIMESTAMP,
    until: { ...NULLABLE_TIMESTAMP, description: "When it ends (UTC); null: until lifted." },
    active: {
      type: "boolean",
      description: "Whether it is in force now: a ban whose end has passed is kept, not active.",
    },
  },
  required: ["reason", "at", "until", "active"],
  additionalProperties: false,
};

/** The properties of `adminUserJson`: `userJson`'s, the public operator columns, role, ban. */
function adminUserProperties(operatorColumns: readonly OperatorColumn[]) {
  const columns = operatorColumns
    .filter((column) => !column.secret)
    .map((column) => [
      column.name,
      {
        type: ["string", "number", "boolean", "null"],
        description: "An operator column of the app (null when unset).",
      },
    ]);
  return {
    id: { type: "integer", minimum: 1 },
    email: { type: "string" },
    created_at: OPENAPI_TIMESTAMP,
    updated_at: OPENAPI_TIMESTAMP,
    ...Object.fromEntries(columns),
    role: {
      enum: ["user", "admin"],
      description: "The platform role: `admin` (granted with `tessera admin grant`) or `user`.",
    },
    confirmed_at: { ...NULLABLE_TIMESTAMP, description: "When the address was confirmed." },
    ban: BAN,
  };
}

/** What `GET /api/admin/users/{id}` adds to the user (`loadUserFacts`). */
const USER_FACTS = {
  admin: {
    type: "boolean",
    description:
      "Whether the user is an operator: the `admin` role, or a confirmed `ADMIN_EMAILS` address.",
  },
  mfa: {
    type: ["object", "null"],
    description: "The second factors turned on; null when the app has none.",
    properties: { totp: { type: "boolean" }, passkeys: COUNT },
    required: ["totp", "passkeys"],
    additionalProperties: false,
  },
  devices: {
    ...COUNT,
    type: ["integer", "null"],
    description: "Signed-in devices; null without the device list.",
  },
  api_keys: COUNT,
  last_sign_in: {
    oneOf: [openApiRef("schemas", AUDIT_EVENT), { type: "null" }],
    description: "The latest `user.signed_in` event; null for none or without an audit trail.",
  },
};

/** The admin part's `components.schemas`, for the app's `operatorColumns`. */
export function adminSchemas(
  operatorColumns: readonly OperatorColumn[],
): Record<string, OpenApiObject> {
  const user = adminUserProperties(operatorColumns);
  const details = { ...user, ...USER_FACTS };
  return {
    [ADMIN_SCHEMAS.user]: {
      type: "object",
      description:
        "A user as an operator sees one: the public form (never the password digest nor a secret operator column), with the role, confirmation and ban.",
      properties: user,
      required: Object.keys(user),
      additionalProperties: false,
    },
    [ADMIN_SCHEMAS.userDetails]: {
      type: "object",
      description:
        "A user as an operator sees one, with their factors, devices, keys and last sign-in.",
      properties: details,
      required: Object.keys(details),
      additionalProperties: false,
    },
    [ADMIN_SCHEMAS.ban]: {
      type: "object",
      description: "Why, and until when. Other keys are ignored.",
      properties: {
        reason: {
          type: "string",
          pattern: "\\S",
          description: `Trimmed, then 1 to ${MAXIMUM_BAN_REASON_LENGTH} characters (422 otherwise); kept with the ban and in the audit trail.`,
        },
        until: {
          type: ["string", "null"],
          pattern: "^\\s*(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2})?\\s*$",
          description:
            "When the ban ends, UTC `YYYY-MM-DD HH:MM:SS`, in the future (422 otherwise). Null, absent or empty: until lifted.",
        },
      },
      required: ["reason"],
      additionalProperties: true,
    },
  };
}
