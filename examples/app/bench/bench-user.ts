/** The JSON content type header every bench request with a body sends. */
export const JSON_HEADERS = { "content-type": "application/json" } as const;

/** Signs up one user (`email`) on the app under load and returns a fresh JWT for it. */
export async function benchUserToken(appUrl: string, email = "bench@example.com"): Promise<string> {
  const credentials = JSON.stringify({ email, password: "bench password" });
  await fetch(`${appUrl}/api/auth/signup`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: credentials,
  });
  const answer = await fetch(`${appUrl}/api/auth/token`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: credentials,
  });
  return ((await answer.json()) as { token: string }).token;
}
