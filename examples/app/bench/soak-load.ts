import { setTimeout as sleep } from "node:timers/promises";
import { signStandardWebhook } from "@tessera/signer";
import { JSON_HEADERS } from "./bench-user.js";

/** What the soak's clients did so far. */
export interface SoakCounts {
  /** Requests answered with the status their step expects. */
  requests: number;
  /** Other answers (and failed connections) by `route status`, with a first body of each. */
  readonly unexpected: Map<string, { count: number; firstBody: string }>;
}

/** The soak's clients under way. */
export interface SoakLoad {
  readonly counts: SoakCounts;
  /** Lets each client finish its step and resolves when all have. */
  stop(): Promise<void>;
}

/** Options of {@link startSoakLoad}. */
export interface SoakLoadOptions {
  /** Clients running at once, each one request at a time. */
  readonly clients: number;
  /** The app's `BILLING_WEBHOOK_SECRET`. */
  readonly billingSecret: string;
}

/** Rounds of the API and page mix per signed-in visit, between sign-up and sign-out. */
const ROUNDS_PER_VISIT = 10;

/**
 * Runs `clients` clients against the app until `stop()`. Each repeats a visit: sign up (JSON),
 * take a token, sign in through the login form (a cookie session), then ten rounds of
 * `GET /api/auth/me`, a note created, read, updated, listed and deleted (JSON), the posts
 * list, a Standard Webhooks delivery, and the home, notes list, note and account pages, then
 * sign out. Notes are deleted as they are made, so tables other than users and webhook events
 * stay small. Every visit signs in from an address of its own (`X-Forwarded-For`, the app runs
 * with `TRUST_PROXY=1`): the sign-up and sign-in rate limits count per client address.
 */
export function startSoakLoad(url: string, options: SoakLoadOptions): SoakLoad {
  const counts: SoakCounts = { requests: 0, unexpected: new Map() };
  let stopping = false;
  let visits = 0;

  /** Sends one request and counts it; resolves with the answer, or undefined when not as expected. */
  async function step(
    route: string,
    expected: number,
    path: string,
    init: RequestInit,
  ): Promise<Response | undefined> {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, { redirect: "manual", ...init });
    } catch (error) {
      countUnexpected(`${route} no answer`, String(error));
      // A refused connection would otherwise spin.
      await sleep(100);
      return undefined;
    }
    if (response.status === expected) {
      counts.requests += 1;
      return response;
    }
    countUnexpected(`${route} ${response.status}`, await response.text());
    return undefined;
  }

  function countUnexpected(key: string, body: string): void {
    const seen = counts.unexpected.get(key);
    if (seen) seen.count += 1;
    else counts.unexpected.set(key, { count: 1, firstBody: body.slice(0, 300) });
  }

  async function visit(): Promise<void> {
    const number = ++visits;
    const address = `198.18.${(number >> 8) & 255}.${number & 255}`;
    const email = `soak-${number}@example.com`;
    const credentials = JSON.stringify({ email, password: "soak password" });
    const fromClient = { "x-forwarded-for": address };
    const json = { ...JSON_HEADERS, ...fromClient };
    const signedUp = await step("POST /api/auth/signup", 201, "/api/auth/signup", {
      method: "POST",
      headers: json,
      body: credentials,
    });
    if (!signedUp) return;
    await signedUp.arrayBuffer();
    const issued = await step("POST /api/auth/token", 200, "/api/auth/token", {
      method: "POST",
      headers: json,
      body: credentials,
    });
    if (!issued) return;
    const { token } = (await issued.json()) as { token: string };
    const bearer = { ...JSON_HEADERS, authorization: `Bearer ${token}` };

    const form = { "content-type": "application/x-www-form-urlencoded" };
    const sameOrigin = { ...fromClient, "sec-fetch-site": "same-origin" };
    const signedIn = await step("POST /login", 303, "/login", {
      method: "POST",
      headers: { ...sameOrigin, ...form },
      body: new URLSearchParams({ email, password: "soak password" }).toString(),
    });
    if (!signedIn) return;
    // As a browser: the session cookie as the last answer set it (flash messages change it).
    let cookie = sessionCookie(signedIn) ?? "";
    await signedIn.arrayBuffer();
    const pageStep = async (
      route: string,
      expected: number,
      path: string,
      init: RequestInit = {},
    ) => {
      const answer = await step(route, expected, path, {
        ...init,
        headers: { ...sameOrigin, cookie, ...(init.headers as Record<string, string>) },
      });
      if (answer) cookie = sessionCookie(answer) ?? cookie;
      await answer?.arrayBuffer();
    };

    for (let round = 0; round < ROUNDS_PER_VISIT && !stopping; round++) {
      await drained(step("GET /api/auth/me", 200, "/api/auth/me", { headers: bearer }));
      const created = await step("POST /api/notes", 201, "/api/notes", {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ title: `Note ${round}`, body: "Soak", tags: ["soak", round] }),
      });
      if (created) {
        const { id } = (await created.json()) as { id: number };
        const note = `/api/notes/${id}`;
        await drained(step("GET /api/notes/{id}", 200, note, { headers: bearer }));
        await drained(
          step("PATCH /api/notes/{id}", 200, note, {
            method: "PATCH",
            headers: bearer,
            body: JSON.stringify({ pinned: true, word_count: round }),
          }),
        );
        await drained(step("GET /api/notes", 200, "/api/notes?limit=20", { headers: bearer }));
        await pageStep("GET /notes/{id}", 200, `/notes/${id}`);
        await drained(
          step("DELETE /api/notes/{id}", 204, note, { method: "DELETE", headers: bearer }),
        );
      }
      await drained(step("GET /api/posts", 200, "/api/posts?limit=20", { headers: bearer }));
      const eventId = `evt_soak_${number}_${round}`;
      const event = JSON.stringify({ id: eventId, type: "invoice.paid", data: { amount: round } });
      await drained(
        step("POST /webhooks/billing", 200, "/webhooks/billing", {
          method: "POST",
          headers: {
            ...JSON_HEADERS,
            ...signStandardWebhook({ id: eventId, body: event, secret: options.billingSecret }),
          },
          body: event,
        }),
      );
      await pageStep("GET /", 200, "/");
      await pageStep("GET /notes", 200, "/notes");
      await pageStep("GET /account", 200, "/account");
    }
    await pageStep("POST /logout", 303, "/logout", { method: "POST", headers: form });
  }

  const clients = Array.from({ length: options.clients }, async () => {
    while (!stopping) await visit();
  });
  return {
    counts,
    async stop() {
      stopping = true;
      await Promise.all(clients);
    },
  };
}

/** Reads an answer's body to its end, so its connection is free for the next request. */
async function drained(answer: Promise<Response | undefined>): Promise<void> {
  await (await answer)?.arrayBuffer();
}

/** The `name=value` of the session cookie an answer set, if it set one. */
function sessionCookie(response: Response): string | undefined {
  const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]!);
  return cookies.find((cookie) => cookie.startsWith("_tessera_session="));
}
