const encoder = new TextEncoder();

/** Encodes text as UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Accepts text (as UTF-8) or bytes and gives bytes, the input form every hash function takes. */
export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}
