export {
  type AccountEmailInput,
  accountEmail,
  type EmailCodeMailInput,
  emailCodeMail,
  type MailLinkOriginOptions,
  mailLinkOrigin,
} from "./account-emails.js";
export {
  type AccountErrorCode,
  INVALID_CREDENTIALS,
  MFA_REQUIRED,
  PASSKEY_INVALID,
} from "./account-error-codes.js";
export { type AccountErrorEntry, accountErrorAnswer } from "./account-errors.js";
export {
  type AccountEvents,
  type AccountEventsOptions,
  type AccountHookName,
  type AccountHooks,
  type AccountRefusal,
  accountEvents,
  type BeforeSignInEvent,
  type EmailChangedEvent,
  type HookRequest,
  type HookUser,
  type PasswordChangedEvent,
  type SignInEvent,
  type SignInGrant,
  type SignInMethod,
  type SignInRefusal,
  type SignUpEvent,
  type SignUpMethod,
  type UserDeletedEvent,
} from "./account-hooks.js";
export { type AccountMessageId, accountMessages } from "./account-messages.js";
export { type AccountOpenApiOptions, accountOpenApi } from "./account-openapi.js";
export {
  type AccountRoutes,
  type AccountRoutesOptions,
  type AccountStores,
  accountRoutes,
} from "./account-routes.js";
export { adminBearer, impersonatorBearer, isAdmin } from "./admin/admin-access.js";
export { ADMIN_USERS_PATH, type AdminPages, defaultAdminPages } from "./admin/admin-pages.js";
export { type AdminUserJson, adminUserJson } from "./admin/admin-user-json.js";
export { type HtmlAdminRoutesOptions, htmlAdminRoutes } from "./admin/html-admin-routes.js";
export {
  IMPERSONATION_FACTOR,
  IMPERSONATION_LIFETIME_SECONDS,
  impersonationActorCheck,
} from "./admin/impersonation.js";
export { type JsonAdminRoutesOptions, jsonAdminRoutes } from "./admin/json-admin-routes.js";
export {
  type AdminUserFacts,
  loadUserFacts,
  type UserFactSources,
} from "./admin/user-facts.js";
export {
  type BanRequest,
  banUser,
  checkBanRequest,
  endUserSignIns,
  MAXIMUM_BAN_REASON_LENGTH,
  type ModerationParts,
  unbanUser,
} from "./admin/user-moderation.js";
export {
  type JsonApiKeyRoutesOptions,
  jsonApiKeyRoutes,
} from "./api-keys/json-api-key-routes.js";
export { type ActivityPage, activityTable, defaultActivityPage } from "./audit/activity-page.js";
export { auditCleanups, DEFAULT_AUDIT_RETENTION_DAYS } from "./audit/audit-cleanups.js";
export {
  ACCOUNT_AUDIT_EVENT_TYPES,
  type AccountAuditEventType,
  type AuditDetail,
  type AuditEntry,
  type AuditEvent,
  auditDetails,
  MAXIMUM_USER_AGENT_LENGTH,
} from "./audit/audit-events.js";
export { type AuditEventJson, auditEventJson } from "./audit/audit-json.js";
export type { AuditLog, AuditQuery } from "./audit/audit-log.js";
export { type AuditRecordOptions, type AuditTrail, auditTrail } from "./audit/audit-trail.js";
export { captchaErrors } from "./captcha/captcha-errors.js";
export {
  CAPTCHA_TIMEOUT_MS,
  type CaptchaFetch,
  type CaptchaFetchOutcome,
  type CaptchaRequest,
  webCaptchaFetch,
} from "./captcha/captcha-fetch.js";
export {
  CAPTCHA_TOKEN_FIELD,
  jsonCaptchaCheck,
  pageCaptchaCheck,
} from "./captcha/captcha-middleware.js";
export {
  CAPTCHA_PROVIDERS,
  type CaptchaProvider,
  type CaptchaProviderName,
} from "./captcha/captcha-providers.js";
export {
  CAPTCHA_JSON_ROUTES,
  CAPTCHA_PAGE_ROUTES,
  type CaptchaRoutesOptions,
  withCaptcha,
} from "./captcha/captcha-routes.js";
export {
  type CaptchaRefusalReason,
  type CaptchaSettings,
  type CaptchaVerdict,
  type CaptchaVerifier,
  type CaptchaVerifierOptions,
  captchaVerifier,
  checkCaptchaSettings,
} from "./captcha/captcha-verifier.js";
export {
  type CaptchaWidget,
  captchaPageHeaders,
  captchaWidgetHtml,
} from "./captcha/captcha-widget.js";
export type { CurrentUser, CurrentUserOptions } from "./current-user.js";
export {
  type HtmlSessionRoutesOptions,
  htmlSessionRoutes,
  otherSessionsEndedMessage,
} from "./devices/html-session-routes.js";
export {
  type JsonSessionRoutesOptions,
  jsonSessionRoutes,
  type SessionJson,
} from "./devices/json-session-routes.js";
export { defaultSessionPages, type SessionPages } from "./devices/sessions-page.js";
export {
  EMAIL_CHANGE_PATH,
  type EmailChangeMailInput,
  type EmailChangingMailInput,
  emailChangeMail,
  emailChangingMail,
} from "./email-change/email-change-mails.js";
export {
  defaultEmailChangePages,
  type EmailChangeConfirmView,
  type EmailChangeFormView,
  type EmailChangePages,
} from "./email-change/email-change-pages.js";
export type {
  EmailChangeStore,
  NewEmailChange,
  PendingEmailChange,
} from "./email-change/email-change-store.js";
export {
  consumeEmailChange,
  EMAIL_CHANGE_LIFETIME_MS,
  issueEmailChange,
  peekEmailChange,
} from "./email-change/email-change-tokens.js";
export {
  type HtmlEmailChangeRoutesOptions,
  htmlEmailChangeRoutes,
} from "./email-change/html-email-change-routes.js";
export {
  type JsonEmailChangeRoutesOptions,
  jsonEmailChangeRoutes,
} from "./email-change/json-email-change-routes.js";
export { MemoryEmailChangeStore } from "./email-change/memory-email-change-store.js";
export type { EmailCodeRecord, EmailCodeStore } from "./email-code/email-code-store.js";
export {
  consumeEmailCode,
  EMAIL_CODE_LIFETIME_MS,
  EMAIL_CODE_MAXIMUM_FAILURES,
  emailCodeKeys,
  issueEmailCode,
} from "./email-code/email-codes.js";
export {
  type JsonEmailCodeRoutesOptions,
  jsonEmailCodeRoutes,
} from "./email-code/json-email-code-routes.js";
export { MemoryEmailCodeStore } from "./email-code/memory-email-code-store.js";
export type {
  EmailedTokenPurpose,
  EmailedTokenRecord,
  EmailedTokenStore,
  NewEmailedToken,
} from "./email-link/emailed-token-store.js";
export {
  consumeEmailedToken,
  EMAILED_TOKEN_LIFETIME_MS,
  type EmailedTokenOwner,
  isEmailedTokenShape,
  issueEmailedToken,
  peekEmailedToken,
} from "./email-link/emailed-tokens.js";
export { htmlEmailLinkRoutes } from "./email-link/html-email-link-routes.js";
export { MemoryEmailedTokenStore } from "./email-link/memory-emailed-token-store.js";
export {
  type AccountPages,
  type DefaultAccountPagesOptions,
  defaultAccountPages,
  type ProfileField,
} from "./html/account-pages.js";
export type { InputField } from "./html/form-fields.js";
export type { HtmlAccountRoutesOptions, HtmlRequestContext } from "./html/html-routes-options.js";
export type { JsonInputFailure } from "./json-input.js";
export type {
  BearerAuthentication,
  BearerCaller,
  JsonAccountRoutesOptions,
  TokenIssuer,
} from "./json-routes-options.js";
export { MAIL_ANSWER_FLOOR_MS } from "./mail-answer-floor.js";
export type { FieldErrors } from "./messages.js";
export {
  type MissingMailer,
  missingMailer,
  noMailerMessage,
} from "./missing-mailer.js";
export { type AccountNotices, mailAccountNotice, sendNoticeMail } from "./notice-mail-delivery.js";
export { type JsonPasskeyRoutesOptions, jsonPasskeyRoutes } from "./passkey/json-passkey-routes.js";
export { MemoryPasskeyStore } from "./passkey/memory-passkey-store.js";
export { passkeyErrors } from "./passkey/passkey-errors.js";
export type {
  NewPasskey,
  Passkey,
  PasskeyChallengeScope,
  PasskeyStore,
} from "./passkey/passkey-store.js";
export {
  MAXIMUM_PASSKEY_NAME_LENGTH,
  PASSKEY_CHALLENGE_LIFETIME_MS,
  type Passkeys,
  passkeys,
} from "./passkey/passkeys.js";
export { relyingPartyOf, type WebAuthnRelyingParty } from "./passkey/webauthn-relying-party.js";
export {
  type BreachedPasswordCheck,
  PWNED_PASSWORDS_TIMEOUT_MS,
  PWNED_PASSWORDS_URL,
  PWNED_RANGE_ANSWER_BYTES,
  type PwnedPasswordsOptions,
  type PwnedRangeFetch,
  type PwnedRangeOutcome,
  type PwnedRangeRequest,
  pwnedPasswords,
} from "./password/breached-passwords.js";
export {
  changePassword,
  type PasswordChangeOptions,
  type PasswordChangeParts,
} from "./password/change-password.js";
export {
  type CurrentPasswordJudgement,
  type CurrentPasswordParts,
  judgeCurrentPassword,
} from "./password/current-password.js";
export {
  type HtmlPasswordRoutesOptions,
  htmlPasswordRoutes,
} from "./password/html-password-routes.js";
export {
  type JsonPasswordRoutesOptions,
  jsonPasswordRoutes,
} from "./password/json-password-routes.js";
export {
  checkNewPassword,
  type NewPasswordCheckOptions,
} from "./password/new-password-check.js";
export {
  PASSWORD_RESET_REQUEST_PATH,
  type PasswordChangedMailInput,
  passwordChangedMail,
} from "./password/password-changed-mail.js";
export { passwordErrors } from "./password/password-errors.js";
export {
  defaultPasswordPage,
  type PasswordPage,
  type PasswordPageView,
} from "./password/password-pages.js";
export {
  findUserByPassword,
  type PasswordSignIn,
  type PasswordSignInParts,
  signInWithPassword,
} from "./password/password-sign-in.js";
export { htmlProfileRoutes } from "./profile/html-profile-routes.js";
export { jsonProfileRoutes } from "./profile/json-profile-routes.js";
export {
  nameColumn,
  type OperatorColumn,
  type OperatorColumnValue,
} from "./profile/operator-columns.js";
export { profileColumns, updateProfile } from "./profile/update-profile.js";
export { BACKUP_CODE_COUNT } from "./second-factor/backup-codes.js";
export type { FactorSummary, FindFactorSummary } from "./second-factor/factor-summary.js";
export {
  type HtmlSecondFactorRoutesOptions,
  htmlSecondFactorRoutes,
} from "./second-factor/html-second-factor-routes.js";
export {
  type JsonSecondFactorRoutesOptions,
  jsonSecondFactorRoutes,
} from "./second-factor/json-second-factor-routes.js";
export { MemorySecondFactorStore } from "./second-factor/memory-second-factor-store.js";
export { secondFactorErrors } from "./second-factor/second-factor-errors.js";
export {
  MFA_MAXIMUM_FAILURES,
  MFA_TOKEN_LIFETIME_MS,
  type SecondFactorAnswer,
  type SecondFactorMethod,
} from "./second-factor/second-factor-sign-in.js";
export type {
  SecondFactorChallenge,
  SecondFactorStore,
  TotpEnrolment,
} from "./second-factor/second-factor-store.js";
export { type SecondFactors, secondFactors } from "./second-factor/second-factors.js";
export { totpCode } from "./second-factor/totp.js";
export {
  type AccountThrottle,
  type AccountThrottleOptions,
  accountThrottle,
  accountThrottledAnswer,
  PASSWORD_THROTTLE_GROUP,
  SECOND_FACTOR_THROTTLE_GROUP,
} from "./sign-in/account-throttle.js";
export { isRecentFullSignIn, RECENT_SIGN_IN_MS } from "./sign-in/recent-sign-in.js";
export {
  type AfterSecondStep,
  type SessionSignIns,
  sessionSignIns,
} from "./sign-in/session-sign-ins.js";
export { signInErrors } from "./sign-in/sign-in-errors.js";
export type { SignInFactor, SignInProof } from "./sign-in/sign-in-factors.js";
export type { SessionSignInOutcome } from "./sign-in/sign-in-grant.js";
export { SECOND_FACTOR_PATH } from "./sign-in/sign-in-grant.js";
export type { TokenMailScope, TokenMailTransaction } from "./token-mail-transaction.js";
export { deleteUser, type UserDeletion } from "./users/account-deletion.js";
export { CachedUserStore } from "./users/cached-user-store.js";
export { isValidEmail, MAXIMUM_EMAIL_LENGTH, normalizeEmail } from "./users/email.js";
export { htmlAccountRoutes } from "./users/html-account-routes.js";
export { jsonAccountRoutes } from "./users/json-account-routes.js";
export { MemoryUserStore } from "./users/memory-user-store.js";
export {
  type SignupAnnouncement,
  type SignupDependencies,
  type SignupInput,
  type SignupResult,
  signUp,
} from "./users/signup.js";
export {
  isBanned,
  type User,
  type UserBan,
  type UserJson,
  type UserRole,
  userJson,
} from "./users/user.js";
export {
  isUserAdministration,
  type NewUser,
  type PasswordUpdateOptions,
  type UserAdministration,
  type UserSearch,
  type UserStore,
} from "./users/user-store.js";
