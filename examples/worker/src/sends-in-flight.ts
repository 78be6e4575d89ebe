import type { Mailer, MailMessage } from "@tessera/mail";

/** A mailer that keeps its sends in flight, for a Worker's handler to wait for. */
export interface TrackedMailer extends Mailer {
  /** The sends not settled yet (each leaves the list once settled). */
  inFlight(): Promise<void>[];
}

/**
 * Wraps `mailer` so the sends it starts can be handed to `waitUntil`. The account routes start a
 * mail and answer without waiting for it; workerd cancels what a request left running once its
 * answer is out, so a mail handed to the binding after that point was silently never sent. A
 * handler passes every send in flight when it answers: the one its request started is among them.
 */
export function trackSends(mailer: Mailer): TrackedMailer {
  const pending = new Set<Promise<void>>();
  return {
    send(message: MailMessage): Promise<void> {
      const sending = mailer.send(message);
      pending.add(sending);
      const forget = () => pending.delete(sending);
      sending.then(forget, forget);
      return sending;
    },
    inFlight: () => [...pending],
  };
}
