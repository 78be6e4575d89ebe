import { type KeyRing, openPayload, sealPayload } from "@tessera/crypto";

// Each value is bound to its endpoint and its name: a sealed value copied onto another
// endpoint's row, or under another name, does not open there.
const context = (endpointId: string, name: string) =>
  `outbound-endpoint-header:${endpointId}:${name.toLowerCase()}`;

/**
 * An endpoint's custom headers for storage: each value sealed (AES-256-GCM, with the keys of
 * the endpoint secrets), the names as they are (the owner's view lists them).
 */
export async function sealEndpointHeaders(
  keys: KeyRing,
  endpointId: string,
  headers: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const sealed: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    sealed.push([name, await sealPayload(keys.current, value, context(endpointId, name))]);
  }
  return Object.fromEntries(sealed);
}

/**
 * An endpoint's custom headers from their stored form, for a delivery.
 * @throws {Error} naming the header (never its value) when one does not open: the key base
 * changed without its previous value, or the row was tampered with.
 */
export async function openEndpointHeaders(
  keys: KeyRing,
  endpointId: string,
  sealed: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const opened: [string, string][] = [];
  for (const [name, value] of Object.entries(sealed)) {
    const result = await openPayload(keys, value, context(endpointId, name));
    if (!result.ok) {
      throw new Error(
        `the header ${name} of endpoint ${endpointId} does not open (${result.reason})`,
      );
    }
    opened.push([name, new TextDecoder().decode(result.value)]);
  }
  return Object.fromEntries(opened);
}
