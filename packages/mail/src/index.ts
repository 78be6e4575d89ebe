export type { HttpMailerOptions } from "./http-mailer-options.js";
export { formatLoggedMail, LogMailer, type LogMailerOptions } from "./log-mailer.js";
export { MailDeliveryError, type MailDeliveryErrorOptions } from "./mail-delivery-error.js";
export type { Mailer, MailMessage, SendOptions } from "./mailer.js";
export { MemoryMailer } from "./memory-mailer.js";
export type { RetryPolicy } from "./retry-policy.js";
