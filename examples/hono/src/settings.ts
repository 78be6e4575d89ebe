import { randomBytes } from "node:crypto";
import { LogMailer, type Mailer } from "@tessera/mail";
import { createSmtpMailer } from "@tessera/mail/smtp";

/**
 * The settings this example reads, named as the main example app names them. Without
 * `SECRET_KEY_BASE` a random one is made at each start (sessions then end at a restart).
 */
export function readSettings(environment: NodeJS.ProcessEnv, example: string) {
  const secretKeyBase = environment.SECRET_KEY_BASE ?? randomBytes(32).toString("hex");
  const mailer: Mailer =
    environment.MAIL_ADAPTER === "smtp"
      ? createSmtpMailer({ url: environment.SMTP_URL ?? "", from: environment.MAIL_FROM ?? "" })
      : new LogMailer();
  return {
    port: Number(environment.PORT ?? 3000),
    host: environment.HOST ?? "127.0.0.1",
    databasePath: environment.DATABASE_PATH ?? `data/${example}.db`,
    secretKeyBase,
    mailer,
    appUrl: environment.APP_URL,
    trustProxy: Number(environment.TRUST_PROXY ?? 0),
    githubWebhookSecret: environment.GITHUB_WEBHOOK_SECRET,
    // Where users' webhook endpoints may point besides public addresses (a local receiver).
    outboundAllowHosts: (environment.OUTBOUND_ALLOW_HOSTS ?? "")
      .split(",")
      .map((host) => host.trim())
      .filter((host) => host !== ""),
    production: environment.NODE_ENV === "production",
  };
}

/** What {@link readSettings} read. */
export type Settings = ReturnType<typeof readSettings>;
