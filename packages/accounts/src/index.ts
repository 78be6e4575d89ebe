export {
  type AccountEmailInput,
  accountEmail,
  type MailLinkOriginOptions,
  mailLinkOrigin,
} from "./account-emails.js";
export { isValidEmail, MAXIMUM_EMAIL_LENGTH, normalizeEmail } from "./email.js";
export {
  EMAILED_TOKEN_PURPOSES,
  type EmailedTokenPurpose,
  type EmailedTokenRecord,
  type EmailedTokenStore,
  type NewEmailedToken,
} from "./emailed-token-store.js";
export {
  consumeEmailedToken,
  EMAILED_TOKEN_LIFETIME_MS,
  type EmailedTokenOwner,
  isEmailedTokenShape,
  issueEmailedToken,
  peekEmailedToken,
} from "./emailed-tokens.js";
export {
  ACCOUNT_DELETION_REFUSED,
  type JsonAccountRoutes,
  jsonAccountRoutes,
} from "./json-account-routes.js";
export {
  type JsonApiKeyRoutes,
  type JsonApiKeyRoutesOptions,
  jsonApiKeyRoutes,
} from "./json-api-key-routes.js";
export { type JsonInputFailure, requireStrings } from "./json-input.js";
export type {
  BearerAuthentication,
  JsonAccountRoutesOptions,
  RequestContext,
  RouteHandler,
  TokenIssuer,
} from "./json-routes-options.js";
export {
  addFieldError,
  CANT_BE_BLANK,
  type FieldErrors,
  HAS_ALREADY_BEEN_TAKEN,
  IS_INVALID,
  tooLongMessage,
} from "./messages.js";
export {
  type ColumnValue,
  NAME_MAXIMUM_LENGTH,
  nameColumn,
  type OperatorColumn,
} from "./operator-columns.js";
export { checkPassword, findUserByPassword } from "./password-sign-in.js";
export { refuseWhenRateLimited } from "./rate-limit-guard.js";
export { type SignupDependencies, type SignupInput, type SignupResult, signUp } from "./signup.js";
export { isConfirmed, type User, type UserJson, userJson } from "./user.js";
export type { NewUser, UserStore } from "./user-store.js";
