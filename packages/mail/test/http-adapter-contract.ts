import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { MailDeliveryError } from "../src/mail-delivery-error.js";
import type { Mailer } from "../src/mailer.js";
import type { RetryPolicy } from "../src/retry-policy.js";
import type { ScriptedAnswer, startProviderDouble } from "./provider-double.js";

type ProviderDouble = Awaited<ReturnType<typeof startProviderDouble>>;

/** What the shared retry and error tests need to know of one HTTP adapter. */
export interface HttpAdapterSpec {
  /** As the adapter names it in errors: "Resend". */
  readonly provider: string;
  /** The credential the adapter was built with: it must appear in no error. */
  readonly secret: string;
  /** The provider's documented answer to a mail it refuses (a 4xx), and the message it holds. */
  readonly refusal: { readonly answer: ScriptedAnswer; readonly message: string };
  /** The provider's 429 answer with this `Retry-After`. */
  readonly rateLimited: (retryAfter: string) => ScriptedAnswer;
  /** The provider's 5xx answer. */
  readonly unavailable: ScriptedAnswer;
  /** A 4xx in the provider's shape whose message repeats `secret` (a proxy might). */
  readonly echoingSecret: ScriptedAnswer;
  readonly mailer: (options: {
    readonly baseUrl: string;
    readonly fetch: (request: Request) => Promise<Response>;
    readonly retry: RetryPolicy;
  }) => Mailer;
}

const mail = {
  to: "ada@example.com",
  subject: "Your sign-in link",
  text: "Hi\n",
  html: "<p>Hi</p>",
};

/**
 * The behaviour every HTTP adapter shares through the one retry policy, run against the
 * provider's double with its documented error bodies.
 */
export function describeHttpAdapterContract(spec: HttpAdapterSpec, double: () => ProviderDouble) {
  function setup(retry: RetryPolicy = {}, baseUrl?: string) {
    const sleeps: number[] = [];
    const traffic = { attempts: 0, bytesRead: 0 };
    const mailer = spec.mailer({
      baseUrl: baseUrl ?? double().url,
      fetch: countingFetch(traffic),
      retry: {
        baseDelayMs: 10,
        random: () => 0.5,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        ...retry,
      },
    });
    return { mailer, sleeps, traffic };
  }

  describe(`${spec.provider}: retries and errors`, () => {
    it("takes a 4xx other than 429 as final, with the provider's message", async () => {
      double().answerNext(spec.refusal.answer);
      const { mailer, traffic } = setup();
      const error = await mailer.send(mail).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect((error as MailDeliveryError).message).toContain(`${spec.provider} answered 4`);
      expect((error as MailDeliveryError).message).toContain(spec.refusal.message);
      expect((error as MailDeliveryError).providerMessage).toContain(spec.refusal.message);
      expect((error as MailDeliveryError).retryable).toBe(false);
      expect(traffic.attempts).toBe(1);
      expect(double().requests).toHaveLength(1);
    });

    it("waits as long as a 429's Retry-After asks, then sends", async () => {
      double().answerNext(spec.rateLimited("2"));
      const { mailer, sleeps, traffic } = setup();
      await mailer.send(mail);
      expect(sleeps).toEqual([2000]);
      expect(traffic.attempts).toBe(2);
    });

    it("reads Retry-After as an HTTP date too", async () => {
      const now = Date.parse("2026-11-26T12:00:00Z");
      double().answerNext(spec.rateLimited("Thu, 26 Nov 2026 12:00:03 GMT"));
      const { mailer, sleeps } = setup({ clock: () => now });
      await mailer.send(mail);
      expect(sleeps).toEqual([3000]);
    });

    it("leaves a Retry-After beyond maxDelayMs to the caller: retryable, with the wait", async () => {
      double().answerNext(spec.rateLimited("120"));
      const { mailer, sleeps, traffic } = setup({ maxDelayMs: 5_000 });
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 120_000 });
      expect(sleeps).toEqual([]);
      expect(traffic.attempts).toBe(1);
    });

    it("retries 5xx with a doubling, jittered backoff, then sends", async () => {
      double().answerNext(spec.unavailable, spec.unavailable);
      const { mailer, sleeps, traffic } = setup({ attempts: 3 });
      await mailer.send(mail);
      // random() is 0.5: half of 10 ms, then half of 20 ms.
      expect(sleeps).toEqual([5, 10]);
      expect(traffic.attempts).toBe(3);
      expect(double().requests).toHaveLength(3);
    });

    it("gives up after the last attempt with a retryable error naming the status", async () => {
      double().answerNext(spec.unavailable, spec.unavailable, spec.unavailable);
      const { mailer, traffic } = setup({ attempts: 3 });
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toMatch(
        new RegExp(`^${spec.provider} answered 5\\d\\d.*\\(after 3 attempts\\)$`),
      );
      expect(error).toMatchObject({ retryable: true });
      expect(error.status).toBeGreaterThanOrEqual(500);
      expect(traffic.attempts).toBe(3);
    });

    it("retries a refused connection, then fails with a clear, retryable error", async () => {
      // A port that was just free: nothing listens there.
      const closed = await import("./provider-double.js").then((module) =>
        module.startProviderDouble({ status: 200 }),
      );
      await closed.close();
      const { mailer, sleeps, traffic } = setup({ attempts: 3 }, closed.url);
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toContain(`${spec.provider}: could not send the request`);
      expect(error.message).toContain("ECONNREFUSED");
      expect(error.message).toContain("(after 3 attempts)");
      expect(error.retryable).toBe(true);
      expect(traffic.attempts).toBe(3);
      expect(sleeps).toHaveLength(2);
    });

    it("ends an attempt that gets no answer at the timeout", async () => {
      double().answerNext({ hang: true });
      const { mailer, traffic } = setup({ attempts: 1, timeoutMs: 100 });
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toBe(`${spec.provider}: no answer within 100 ms`);
      expect(error.retryable).toBe(true);
      expect(traffic.attempts).toBe(1);
    });

    it("reads no more than a small part of a 10 MB answer", async () => {
      double().answerNext({ status: 400, streamBytes: 10 * 1024 * 1024 });
      const { mailer, traffic } = setup();
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toBe(
        `${spec.provider} answered 400 Bad Request: an answer over 16384 bytes, not read`,
      );
      expect(traffic.bytesRead).toBeLessThan(256 * 1024);
    });

    it("says so when an error answer breaks off midway", async () => {
      double().answerNext({ status: 400, brokenBody: '{"message":"Inva' });
      const { mailer, traffic } = setup();
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toBe(`${spec.provider} answered 400 Bad Request: its answer broke off`);
      expect(error).toMatchObject({ status: 400, retryable: false });
      expect(traffic.attempts).toBe(1);
    });

    it("never puts the credential in the error, its message or its cause", async () => {
      double().answerNext(spec.echoingSecret);
      const { mailer } = setup();
      const error = (await mailer
        .send(mail)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.message).toContain("[redacted]");
      expect(inspect(error, { depth: 10 })).not.toContain(spec.secret);
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(spec.secret);

      const closed = await import("./provider-double.js").then((module) =>
        module.startProviderDouble({ status: 200 }),
      );
      await closed.close();
      const network = setup({ attempts: 1 }, closed.url);
      const refused = await network.mailer.send(mail).catch((caught: unknown) => caught);
      expect(inspect(refused, { depth: 10 })).not.toContain(spec.secret);
    });
  });
}

/** The global fetch, counting attempts and the answer bytes the adapter actually pulled. */
function countingFetch(traffic: { attempts: number; bytesRead: number }) {
  return async (request: Request): Promise<Response> => {
    traffic.attempts++;
    const response = await globalThis.fetch(request);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else {
            traffic.bytesRead += value.length;
            controller.enqueue(value);
          }
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
