// `@tessera/mail/preview`: the development mail preview's routes (the mails of the outbox's
// `mail` queue as pages and JSON), on @tessera/http and @tessera/outbox (optional peers: only
// this entry needs them). For development only: the mails hold working sign-in links.
export {
  MAIL_FRAME_SANDBOX,
  type MailPreviewFrame,
  renderMailListPage,
  renderMailPage,
  renderMissingMailPage,
} from "./preview/mail-preview-pages.js";
export {
  MAIL_PREVIEW_PATH,
  type MailPreviewOptions,
  mailPreviewRoutes,
} from "./preview/mail-preview-routes.js";
export {
  MAIL_PREVIEW_LIMIT,
  type PreviewedMail,
  type PreviewedMailJson,
  type PreviewStatus,
  previewedMail,
  previewedMailJson,
  previewedMails,
} from "./preview/previewed-mail.js";
