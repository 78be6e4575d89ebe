import { jsonAnswer } from "@tessera/http";

/** The body of a granted bearer token: `{ token, token_type: "Bearer", expires_in }`. */
export function tokenAnswer(issued: {
  readonly token: string;
  readonly expiresIn: number;
}): Response {
  return jsonAnswer({ token: issued.token, token_type: "Bearer", expires_in: issued.expiresIn });
}
