import { describe, expect, it } from "vitest";
import { readBoundedAnswer } from "../src/index.js";

/** A response whose body arrives in `chunks`, counting what the reader pulled. */
function streamed(chunks: readonly Uint8Array[]) {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulled++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body), pulled: () => pulled, cancelled: () => cancelled };
}

describe("readBoundedAnswer", () => {
  it("reads a short answer whole", async () => {
    const answer = await readBoundedAnswer(new Response("all of it"), 100);
    expect(answer).toEqual({ text: "all of it", complete: true });
  });

  it("stops at the limit and cancels the rest unread", async () => {
    const megabyte = new Uint8Array(1024 * 1024).fill(0x61);
    const body = streamed(Array.from({ length: 50 }, () => megabyte));
    const answer = await readBoundedAnswer(body.response, 16 * 1024);
    expect(answer.complete).toBe(false);
    expect(answer.text).toHaveLength(16 * 1024);
    expect(body.pulled()).toBeLessThan(3);
    expect(body.cancelled()).toBe(true);
  });

  it("keeps a character split between chunks whole", async () => {
    const euro = new TextEncoder().encode("€"); // three bytes
    const body = streamed([euro.subarray(0, 1), euro.subarray(1)]);
    expect(await readBoundedAnswer(body.response, 10)).toEqual({ text: "€", complete: true });
  });

  it("answers an empty body as complete", async () => {
    expect(await readBoundedAnswer(new Response(null, { status: 204 }), 10)).toEqual({
      text: "",
      complete: true,
    });
  });
});
