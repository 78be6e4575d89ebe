export {
  ACCOUNT_PATH,
  type AccessRefusal,
  type AccessResult,
  LOGIN_PATH,
  optionalUser,
  requireConfirmedUser,
  requireUser,
  type UserLoader,
} from "./access-modes.js";
export { signInDevice, signOutDevice } from "./device-sign-in.js";
export { ACTING_OPERATOR_VALUE, type PageRequest, sessionPageContext } from "./page-context.js";
export { type HtmlRouteContext, type HtmlRouteSafety, pageSafety } from "./page-safety.js";
export { pageHeaders } from "./page-security.js";
export { SESSION_LIFETIME_SECONDS, type Session, type SignInOptions } from "./session.js";
export {
  confirmedSessionAuthentication,
  sessionAuthentication,
} from "./session-authentication.js";
export {
  createSessionCookies,
  SESSION_KEY_LABEL,
  type SessionCookies,
  type SessionCookiesOptions,
  sessionCookieName,
} from "./session-cookies.js";
export { type SessionMessageId, sessionMessages } from "./session-messages.js";
export {
  type Flash,
  type FlashKind,
  MAXIMUM_FLASH_MESSAGE_LENGTH,
  MAXIMUM_FLASHES,
  MAXIMUM_PAYLOAD_BYTES,
  MAXIMUM_REMEMBERED_PAGE_LENGTH,
  MAXIMUM_SESSION_VALUES,
  SESSION_VALUE_NAME,
  SESSION_VALUE_TEXT,
} from "./session-payload.js";
export {
  type MaybeSessionContext,
  openSession,
  type SessionRouteContext,
} from "./session-routes.js";
export { browserName, UNKNOWN_BROWSER } from "./tracked-session-browser.js";
export { trackedSessionCleanups } from "./tracked-session-cleanups.js";
export type {
  NewTrackedSession,
  TrackedSession,
  TrackedSessionStore,
} from "./tracked-session-store.js";
export {
  checkTrackedSession,
  deleteExpiredTrackedSessions,
  endCurrentTrackedSession,
  endOtherTrackedSessions,
  endTrackedSession,
  LAST_SEEN_WRITE_INTERVAL_MS,
  listTrackedSessions,
  MAXIMUM_USER_AGENT_LENGTH,
  type StartTrackedSessionOptions,
  startTrackedSession,
  TRACKED_SESSION_VALUE,
  type TrackedSessionRefusal,
} from "./tracked-sessions.js";
