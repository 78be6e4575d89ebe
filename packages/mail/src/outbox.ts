export { type MailSenderOptions, mailSender } from "./mail-sender.js";
export { type OutboxMailerOptions, outboxMailer } from "./outbox-mailer.js";
export { MAIL_QUEUE, parseQueuedMail, type QueuedMail } from "./queued-mail.js";
