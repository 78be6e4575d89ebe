/** The body of a granted bearer token: `{ token, token_type: "Bearer", expires_in }`. */
export function tokenAnswer(issued: {
  readonly token: string;
  readonly expiresIn: number;
}): Response {
  return Response.json({ token: issued.token, token_type: "Bearer", expires_in: issued.expiresIn });
}
