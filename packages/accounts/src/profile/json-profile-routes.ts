import { localizeFieldMessages, systemClock } from "@tessera/core";
import {
  badRequest,
  JSON_BODY_FAILURE_PREFIX,
  jsonAnswer,
  type Route,
  type RouteContext,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { refuseUnstorableText } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { userJson } from "../users/user.js";
import { profileColumns, updateProfile } from "./update-profile.js";

/** serde's words for a key that is no field: `unknown field `x`, expected `name``. */
function unknownFieldMessage(key: string, fields: readonly string[]): string {
  const expected =
    fields.length === 0
      ? "there are no fields"
      : fields.length === 1
        ? `expected \`${fields[0]}\``
        : `expected one of ${fields.map((field) => `\`${field}\``).join(", ")}`;
  return `${JSON_BODY_FAILURE_PREFIX}unknown field \`${key}\`, ${expected}`;
}

/**
 * `PATCH /api/auth/me` (a token or an API key): the bearer's profile, the operator columns
 * sign-up accepts (`name` in the example app), each checked as at sign-up: 200 with the user;
 * 422 with every failing field; 400 for a key that is no profile column or a malformed body.
 * A key left out keeps its value.
 */
export function jsonProfileRoutes(options: JsonAccountRoutesOptions): Route[] {
  const operatorColumns = options.operatorColumns ?? [];
  const columns = profileColumns(operatorColumns);
  const names = columns.map((column) => column.name);
  const clock = options.clock ?? systemClock;

  async function updateOwnProfile(
    request: Request,
    context: RouteContext & BearerUserContext,
  ): Promise<Response> {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const unknown = Object.keys(body.value).find((key) => !names.includes(key));
    if (unknown !== undefined) return badRequest(unknownFieldMessage(unknown, names));
    const unstorable = refuseUnstorableText(body.value, names);
    if (unstorable) return badRequest(unstorable.message);
    const { user, locale } = context;
    const updated = await updateProfile(options.users, columns, user, body.value, clock());
    if (!updated.ok) return validationFailed(localizeFieldMessages(updated.fields, locale), locale);
    return jsonAnswer(userJson(updated.user, operatorColumns), { locale });
  }

  return withMiddleware(
    [{ method: "PATCH", path: "/api/auth/me", handle: updateOwnProfile }],
    bearerUser(options.bearer),
  );
}
