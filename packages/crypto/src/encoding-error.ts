/** Thrown by the decoders for input that is not well-formed in the expected encoding. */
export class EncodingError extends Error {
  override readonly name = "EncodingError";
}
