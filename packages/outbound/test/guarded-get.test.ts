import { guardedFetch, type OutboundFetch, type OutboundFetchLimits } from "@tessera/outbound";
import { nodeGuardedFetch } from "@tessera/outbound/node";
import { describe, expect, it } from "vitest";
import { testReceiver } from "./support/receiver.js";

const receiver = await testReceiver();

type Options = OutboundFetchLimits & { readonly allowHosts?: readonly string[] };

// The same cases for both guarded fetches: a literal 127.0.0.1 on the allow list needs no DNS.
const FETCHES: Record<string, (options: Options) => OutboundFetch> = {
  "nodeGuardedFetch (node:http)": (options) => nodeGuardedFetch(options),
  "guardedFetch (WHATWG fetch)": (options) => guardedFetch(options),
};

const allowLocal = { allowHosts: ["127.0.0.1"] };
let paths = 0;

for (const [name, makeFetch] of Object.entries(FETCHES)) {
  describe(`${name}: GET`, () => {
    it("sends a GET without a body, with the request's headers, and keeps the whole answer", async () => {
      const path = `/get-${++paths}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end("ABC:1\r\nDEF:0"));
      const outcome = await makeFetch(allowLocal)({
        method: "GET",
        url: receiver.url(path),
        headers: { "add-padding": "true" },
      });
      expect(outcome).toMatchObject({
        kind: "answered",
        status: 200,
        answer: "ABC:1\r\nDEF:0",
        complete: true,
      });
      const [got] = receiver.receivedAt(path);
      expect(got?.method).toBe("GET");
      expect(got?.body).toBe("");
      expect(got?.headers["add-padding"]).toBe("true");
      expect(got?.headers["content-length"]).toBeUndefined();
      expect(got?.headers["transfer-encoding"]).toBeUndefined();
    });

    it("keeps only answerBytes of a longer answer and says it is cut", async () => {
      const path = `/get-long-${++paths}`;
      receiver.on(path, (_request, response) => {
        response.writeHead(200);
        response.end("x".repeat(300_000));
      });
      const outcome = await makeFetch({ ...allowLocal, answerBytes: 128 * 1024 })({
        method: "GET",
        url: receiver.url(path),
        headers: {},
      });
      expect(outcome).toMatchObject({ kind: "answered", status: 200, complete: false });
      if (outcome.kind !== "answered") return;
      expect(outcome.answer.length).toBe(128 * 1024);
    });

    it("calls an answer of exactly answerBytes complete", async () => {
      const path = `/get-exact-${++paths}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end("y".repeat(2048)));
      const outcome = await makeFetch({ ...allowLocal, answerBytes: 2048 })({
        method: "GET",
        url: receiver.url(path),
        headers: {},
      });
      expect(outcome).toMatchObject({ kind: "answered", complete: true });
      if (outcome.kind === "answered") expect(outcome.answer.length).toBe(2048);
    });

    it("refuses a GET to a target the guard refuses, sending nothing", async () => {
      const path = `/get-refused-${++paths}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end());
      const outcome = await makeFetch({})({ method: "GET", url: receiver.url(path), headers: {} });
      expect(outcome).toMatchObject({ kind: "refused" });
      expect(receiver.receivedAt(path)).toEqual([]);
    });

    it("gives up on a GET whose answer does not come within the timeout", async () => {
      const path = `/get-silent-${++paths}`;
      receiver.on(path, () => {}); // never answers
      const outcome = await makeFetch({ ...allowLocal, timeoutMs: 150 })({
        method: "GET",
        url: receiver.url(path),
        headers: {},
      });
      expect(outcome).toMatchObject({ kind: "timeout", message: "no answer within 150 ms" });
    });
  });

  describe(`${name}: POST stays the default`, () => {
    it("posts the body when the request names no method, and says a short answer is complete", async () => {
      const path = `/post-${++paths}`;
      receiver.on(path, (_request, response) => response.writeHead(202).end("queued"));
      const outcome = await makeFetch(allowLocal)({
        url: receiver.url(path),
        headers: { "content-type": "application/json" },
        body: '{"type":"ping"}',
      });
      expect(outcome).toMatchObject({ kind: "answered", status: 202, complete: true });
      const [got] = receiver.receivedAt(path);
      expect(got?.method).toBe("POST");
      expect(got?.body).toBe('{"type":"ping"}');
    });
  });
}
