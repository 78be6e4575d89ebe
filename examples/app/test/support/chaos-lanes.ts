import { setTimeout as sleep } from "node:timers/promises";
import { signStandardWebhook } from "@tessera/signer";

/** What one request of the chaos clients got. */
export interface Answer {
  /** The sign-up's email, the note's title or the event's id. */
  readonly key: string;
  readonly kind: "signup" | "note" | "webhook";
  /** The HTTP status; 0 when the connection failed, -1 when no answer came in time. */
  readonly status: number;
  /** The parsed JSON body, or the text of a body that is not JSON. */
  readonly body: unknown;
  /** `Date.now()` when the request was sent. */
  readonly startedAt: number;
}

/** Every answer the chaos clients got, in order, with a way to wait for a state of them. */
export class AnswerLog {
  readonly answers: Answer[] = [];
  private readonly waiters = new Set<() => void>();

  record(answer: Answer): void {
    this.answers.push(answer);
    for (const check of [...this.waiters]) check();
  }

  /**
   * Resolves once `condition` holds, looked at now and after each answer; rejects after
   * `timeoutMs`, naming `description` and the statuses seen.
   */
  until(description: string, condition: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${description} within ${timeoutMs} ms: ${this.summary()}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The answers to requests sent at `since` or later that satisfy `matches`. */
  countSince(since: number, matches: (answer: Answer) => boolean): number {
    let count = 0;
    for (const answer of this.answers) if (answer.startedAt >= since && matches(answer)) count++;
    return count;
  }

  /** How many answers of each status, for messages. */
  summary(): string {
    const counts = new Map<number, number>();
    for (const { status } of this.answers) counts.set(status, (counts.get(status) ?? 0) + 1);
    return JSON.stringify(Object.fromEntries(counts));
  }
}

/** A 2xx: the request did what it asked. */
export const succeeded = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** Where and as whom the lanes send, and how many lanes of each kind run. */
export interface LaneOptions {
  readonly url: string;
  /** A bearer token of the user who owns the notes. */
  readonly token: string;
  /** The billing endpoint's `whsec_` secret. */
  readonly billingSecret: string;
  /** Starts every email, title and event id, so that one run's rows can be told apart. */
  readonly prefix: string;
  readonly log: AnswerLog;
}

/** What the lanes did, once they stopped. */
export interface LaneResults {
  /** Emails whose sign-up was answered 201, or `has already been taken` on a retry. */
  readonly signedUp: readonly string[];
  /** Every note title sent (once each: creating a note is not retried). */
  readonly noteTitles: readonly string[];
  /** The notes answered 201. */
  readonly notes: readonly { readonly id: number; readonly title: string }[];
  /** Every event id delivered. */
  readonly events: readonly string[];
  /** Event ids a delivery of which was answered 2xx. */
  readonly acceptedEvents: readonly string[];
  /** Sign-ups and deliveries that ran out of tries without an answer that settles them. */
  readonly gaveUp: readonly string[];
}

/** Lanes under way: stop them, and see the deliveries still waiting for a 2xx. */
export interface RunningLanes {
  /** Lets each lane finish the operation it is on, and resolves with what they all did. */
  stop(): Promise<LaneResults>;
  /** Event ids being delivered now and not yet answered 2xx. */
  pendingEvents(): string[];
}

const REQUEST_TIMEOUT_MS = 10_000;
const MAX_TRIES = 400;
const TAKEN = { email: ["has already been taken"] };

/**
 * Runs lanes of clients against the app until `stop()`, each doing one operation after
 * another: sign-ups (2 lanes), notes created with a bearer token (2), and Standard Webhooks
 * deliveries to `/webhooks/billing` (3). Sign-ups and deliveries behave as real clients and
 * senders do: each retries, a short pause apart and a bounded number of times, until an answer
 * settles it (a 201, or `taken` for a sign-up whose earlier try went through; a 2xx for a
 * delivery, signed afresh each time). A note is sent once: a POST that got no answer may or
 * may not have been written, and a client cannot know which.
 */
export function startLanes(options: LaneOptions): RunningLanes {
  let stopping = false;
  let serial = 0;
  let addresses = 0;
  const next = (kind: string) => `${options.prefix}-${kind}-${++serial}`;
  const signedUp: string[] = [];
  const noteTitles: string[] = [];
  const notes: { id: number; title: string }[] = [];
  const events: string[] = [];
  const acceptedEvents: string[] = [];
  const pending = new Set<string>();
  const gaveUp: string[] = [];

  const send = async (
    kind: Answer["kind"],
    key: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<Answer> => {
    const startedAt = Date.now();
    let answer: Answer;
    try {
      const response = await fetch(`${options.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      answer = { key, kind, status: response.status, body: parseJson(text), startedAt };
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      answer = { key, kind, status: timedOut ? -1 : 0, body: String(error), startedAt };
    }
    return answer;
  };
  const pause = () => sleep(50 + Math.random() * 100);

  async function signUp(): Promise<void> {
    const email = `${next("user")}@example.com`;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      // Each try from an address of its own: the sign-up rate limit counts per client.
      const address = `198.18.${(++addresses >> 8) & 255}.${addresses & 255}`;
      const answer = await send(
        "signup",
        email,
        "/api/auth/signup",
        { "x-forwarded-for": address },
        JSON.stringify({ email, password: "password123" }),
      );
      const settled =
        answer.status === 201 || (answer.status === 422 && sameJson(fieldsOf(answer.body), TAKEN));
      if (settled) signedUp.push(email);
      options.log.record(answer);
      if (settled) return;
      await pause();
    }
    gaveUp.push(email);
  }

  async function createNote(): Promise<void> {
    const title = next("note");
    noteTitles.push(title);
    const answer = await send(
      "note",
      title,
      "/api/notes",
      { authorization: `Bearer ${options.token}` },
      JSON.stringify({ title, body: "Written while the app was under chaos." }),
    );
    if (answer.status === 201) notes.push({ id: (answer.body as { id: number }).id, title });
    options.log.record(answer);
    // A failed create pauses like the retrying clients, rather than spinning on an outage.
    if (answer.status !== 201) await pause();
  }

  async function deliver(): Promise<void> {
    const id = next("evt");
    const body = JSON.stringify({ id, type: "invoice.paid", data: { invoice: id, amount: 5 } });
    events.push(id);
    pending.add(id);
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const headers = signStandardWebhook({ id, body, secret: options.billingSecret });
      const answer = await send("webhook", id, "/webhooks/billing", { ...headers }, body);
      // Settled before it is recorded: whoever waits on the log sees both at once.
      if (succeeded(answer)) {
        pending.delete(id);
        acceptedEvents.push(id);
      }
      options.log.record(answer);
      if (succeeded(answer)) return;
      await pause();
    }
    pending.delete(id);
    gaveUp.push(id);
  }

  const lane = async (operation: () => Promise<void>) => {
    while (!stopping) await operation();
  };
  const lanes = Promise.all([
    lane(signUp),
    lane(signUp),
    lane(createNote),
    lane(createNote),
    lane(deliver),
    lane(deliver),
    lane(deliver),
  ]);
  return {
    async stop() {
      stopping = true;
      await lanes;
      return { signedUp, noteTitles, notes, events, acceptedEvents, gaveUp };
    },
    pendingEvents: () => [...pending],
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fieldsOf(body: unknown): unknown {
  return (body as { error?: { fields?: unknown } } | null)?.error?.fields;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
