import { type Clock, systemClock } from "@tessera/core";
import type { Mailer } from "@tessera/mail";
import type { PasswordHashOptions } from "@tessera/password";
import { type AccountEvents, accountEvents } from "../account-hooks.js";
import { reportMailErrorToStderr } from "../mail-error-report.js";
import { deliversMail } from "../missing-mailer.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import { type SessionSignIns, sessionSignIns } from "../sign-in/session-sign-ins.js";
import type { HtmlAccountRoutesOptions } from "./html-routes-options.js";

/** What the HTML account routes' options give once their defaults are filled in. */
export interface HtmlAccountParts {
  readonly clock: Clock;
  readonly events: AccountEvents;
  /** The factors users may have: with `clock`, what a recent sign-in is judged by. */
  readonly secondFactors: SecondFactors | undefined;
  /** The sign-in grant's cookie transport every HTML way in ends with. */
  readonly signIns: SessionSignIns;
  readonly passwordOptions: {
    readonly clock: Clock;
    readonly passwords?: PasswordHashOptions | undefined;
  };
  readonly reportMailError: (error: unknown, purpose: string) => void;
  /** The mailer when it delivers: only then may a page say a mail was sent. */
  readonly mailer: Mailer | undefined;
  /** Whether mails are really delivered (`mailer` is set). */
  readonly deliversMail: boolean;
  /**
   * Whether the pages offer what takes a mail (sign-in links, password reset, a new
   * confirmation link): with a mailer, and with a `missingMailer`, whose routes answer 500.
   */
  readonly offersEmailLinks: boolean;
  /** Whether the sessions record devices (then the pages link the device list). */
  readonly tracksDevices: boolean;
}

/** The {@link HtmlAccountParts} of the HTML account routes' options. */
export function htmlAccountParts(options: HtmlAccountRoutesOptions): HtmlAccountParts {
  const clock = options.clock ?? systemClock;
  const events = options.events ?? accountEvents();
  return {
    clock,
    events,
    secondFactors: options.secondFactors,
    signIns:
      options.signIns ??
      sessionSignIns({
        sessions: options.sessions,
        events,
        clock,
        secondFactors: options.secondFactors,
      }),
    passwordOptions: { clock, ...(options.passwords ? { passwords: options.passwords } : {}) },
    reportMailError: options.onMailError ?? reportMailErrorToStderr,
    mailer: deliversMail(options.mailer) ? options.mailer : undefined,
    deliversMail: deliversMail(options.mailer),
    offersEmailLinks: options.mailer !== undefined,
    tracksDevices: options.sessions.trackedSessions !== undefined,
  };
}
