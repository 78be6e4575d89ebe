export { type HookErrorReporter, reportHookErrorToStderr, runAfterHook } from "./after-hook.js";
export { type BoundedAnswer, readBoundedAnswer } from "./bounded-answer.js";
export type { CleanupOutcome, CleanupTask } from "./cleanup-task.js";
export { type Clock, systemClock } from "./clock.js";
export { signedInBeforeCredentialsChanged } from "./credentials-change.js";
export {
  type CommonErrorCode,
  errorCodeOfStatus,
  STATUS_ERROR_CODES,
} from "./error-codes.js";
export { type ErrorDetails, type ErrorEnvelope, errorEnvelope } from "./error-envelope.js";
export { ExpiringCache, type ExpiringCacheOptions } from "./expiring-cache.js";
export { loadOnFirstUse } from "./first-use.js";
export { type HtmlValue, html, joinHtml, SafeHtml, unsafeHtml } from "./html.js";
export { escapeHtml } from "./html-escape.js";
export {
  defineMessages,
  ENGLISH,
  fillTemplate,
  type Locale,
  type MessageCatalog,
  type MessageIdOf,
  type MessageParams,
  type Messages,
} from "./messages.js";
export {
  configurationError,
  requireFunctionOption,
  requireObjectOption,
} from "./option-checks.js";
export { type RepeatingTaskOptions, scheduleRepeating } from "./repeating-task.js";
export { fail, ok, type Result } from "./result.js";
export { formatTimestamp, parseTimestamp } from "./timestamp.js";
export { type UnstorableText, unstorableText } from "./unicode-text.js";
export {
  BLANK,
  errorSummaryHeading,
  fullMessage,
  humanizeFieldName,
  INVALID,
  localizeFieldMessages,
  localizeValidationMessage,
  tooLongMessage,
  type ValidationMessageId,
  validationMessages,
} from "./validation-messages.js";
