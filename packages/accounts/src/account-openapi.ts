// The OpenAPI part of every JSON account route: each feature folder describes its own routes
// (`<folder>/<feature>-openapi.ts`, beside the routes and the refusal entries they answer with);
// this joins them with the components they share.
import type { OpenApiPart } from "@tessera/http";
import { ACCOUNT_COMPONENTS } from "./account-openapi-parts.js";
import { adminOpenApi } from "./admin/admin-openapi.js";
import { apiKeysOpenApi } from "./api-keys/api-keys-openapi.js";
import { activityOpenApi } from "./audit/activity-openapi.js";
import { devicesOpenApi } from "./devices/devices-openapi.js";
import { emailChangeOpenApi } from "./email-change/email-change-openapi.js";
import { emailCodeOpenApi } from "./email-code/email-code-openapi.js";
import { passkeyOpenApi } from "./passkey/passkey-openapi.js";
import { passwordOpenApi } from "./password/password-openapi.js";
import type { OperatorColumn } from "./profile/operator-columns.js";
import { profileOpenApi } from "./profile/profile-openapi.js";
import { refreshOpenApi } from "./refresh/refresh-openapi.js";
import { secondFactorOpenApi } from "./second-factor/second-factor-openapi.js";
import { usersOpenApi } from "./users/users-openapi.js";

/** What the account routes' OpenAPI part is built from: what the routes are built from. */
export interface AccountOpenApiOptions {
  /** The users' operator columns, as the routes take them: the public ones are in `/me`. */
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
}

/**
 * The OpenAPI parts of every JSON account route (sign-up, tokens, the account's life, second
 * factors, passkeys, API keys, devices, activity, admin), and the components they share. An app
 * merges them into its document with `mergeOpenApiParts`, and drops those it does not mount with
 * `onlyMountedOperations`.
 */
export function accountOpenApi(options: AccountOpenApiOptions = {}): OpenApiPart[] {
  return [
    { tags: [], paths: {}, ...ACCOUNT_COMPONENTS },
    usersOpenApi(options),
    profileOpenApi(options),
    passwordOpenApi(options),
    emailChangeOpenApi(options),
    emailCodeOpenApi(options),
    refreshOpenApi(options),
    secondFactorOpenApi(options),
    passkeyOpenApi(options),
    apiKeysOpenApi(options),
    devicesOpenApi(options),
    adminOpenApi(options),
    activityOpenApi(options),
  ];
}
