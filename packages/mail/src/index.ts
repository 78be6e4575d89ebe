export { formatLoggedMail, LogMailer, type LogMailerOptions } from "./log-mailer.js";
export { MailDeliveryError } from "./mail-delivery-error.js";
export type { Mailer, MailMessage } from "./mailer.js";
export { MemoryMailer } from "./memory-mailer.js";
