/**
 * A `Message-ID` (`<…@sender-domain>`) for a mail from `senderAddress`: the SHA-256 of the
 * mail's idempotency key, so every attempt at one mail carries the same ID (mailbox providers
 * fold duplicates with one ID, and the key itself is not disclosed), or a random one without it.
 */
export async function messageIdFor(
  senderAddress: string,
  idempotencyKey: string | undefined,
): Promise<string> {
  const domain = senderAddress.slice(senderAddress.lastIndexOf("@") + 1);
  const safeDomain = /^[A-Za-z0-9.-]+$/.test(domain) ? domain : "tessera.invalid";
  if (idempotencyKey === undefined) return `<${crypto.randomUUID()}@${safeDomain}>`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(idempotencyKey));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(
    "",
  );
  return `<${hex}@${safeDomain}>`;
}
