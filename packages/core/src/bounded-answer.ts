/** An answer's body as text, cut at a byte limit. */
export interface BoundedAnswer {
  readonly text: string;
  /** False when the body was longer than the limit and the rest was never read. */
  readonly complete: boolean;
}

/**
 * Reads at most `limit` bytes of `response`'s body as UTF-8 and cancels the rest, so a server
 * we call (a mail provider, a webhook receiver, anything in between) answering megabytes cannot
 * make us hold them.
 */
export async function readBoundedAnswer(response: Response, limit: number): Promise<BoundedAnswer> {
  if (!response.body) return { text: "", complete: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), complete: true };
    const room = limit - received;
    received += value.length;
    if (value.length > room) {
      text += decoder.decode(value.subarray(0, room));
      await reader.cancel();
      return { text, complete: false };
    }
    text += decoder.decode(value, { stream: true });
  }
}
