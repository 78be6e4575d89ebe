// What every program check:guides starts must do over HTTP, as a user of it would.
import { walkSecondFactor } from "./second-factor-walk.js";

/** The account every walk signs up (each program runs on a database of its own). */
const CREDENTIALS = { email: "ada@example.com", password: "correct horse battery staple" };

/**
 * Signs up, gets a token and reads the user from `/api/auth/me` of the program at `origin`, then
 * logs in with the HTML form and reads the user in the program's own `/me` route, then turns
 * TOTP on and signs in with a code; the reason it went wrong, or undefined.
 */
export async function walkAccounts(origin: string): Promise<string | undefined> {
  const post = (path: string, body: unknown) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const signup = await post("/api/auth/signup", CREDENTIALS);
  if (signup.status !== 201) return `sign-up answered ${signup.status}: ${await signup.text()}`;
  const token = await post("/api/auth/token", CREDENTIALS);
  if (token.status !== 200) return `the token route answered ${token.status}`;
  const { token: bearer } = (await token.json()) as { token: string };
  const me = await fetch(`${origin}/api/auth/me`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  const user = (await me.json()) as { email?: string };
  if (me.status !== 200 || user.email !== CREDENTIALS.email) {
    return `/api/auth/me answered ${me.status}: ${JSON.stringify(user)}`;
  }
  const ownRoute = await ownRouteUser(origin);
  if (ownRoute) return ownRoute;
  return await walkSecondFactor(origin, CREDENTIALS, bearer);
}

/**
 * Logs in with the HTML form and reads the program's own `/me` route with the session cookie
 * (the email), then without it (401): the signed-in user in a route of the app's own.
 */
async function ownRouteUser(origin: string): Promise<string | undefined> {
  const login = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams(CREDENTIALS),
  });
  const cookie = login.headers.getSetCookie()[0]?.split(";")[0];
  if (login.status !== 303 || !cookie) return `the login form answered ${login.status}`;
  const me = await fetch(`${origin}/me`, { headers: { cookie } });
  const email = await me.text();
  if (me.status !== 200 || email !== CREDENTIALS.email) {
    return `/me answered ${me.status} for the signed-in user: ${email}`;
  }
  const visitor = await fetch(`${origin}/me`);
  if (visitor.status !== 401) return `/me answered ${visitor.status} to a visitor, not 401`;
  return undefined;
}
