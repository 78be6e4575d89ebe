import { benchUserToken, JSON_HEADERS } from "./bench-user.js";

/** What the limit bench's requests carry: a JWT, an API key, and two session cookies. */
export interface LimitCredentials {
  readonly token: string;
  readonly apiKey: string;
  /** `Cookie` of a browser just signed in: its session holds the "Signed in." flash. */
  readonly flashCookie: string;
  /** `Cookie` of the same browser once the home page took the flash: reading only. */
  readonly readOnlyCookie: string;
}

function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie;
}

/**
 * Signs the bench user up on the app, makes its JWT and an API key, signs it in through the
 * login form (the app's own flash and tracked session) and visits the home page once, and adds
 * `notes` notes, so listings have 50 to show.
 */
export async function seedLimitBench(url: string, notes: number): Promise<LimitCredentials> {
  const token = await benchUserToken(url);
  const authorization = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
  const keyAnswer = await fetch(`${url}/api/auth/keys`, {
    method: "POST",
    headers: authorization,
    body: JSON.stringify({ name: "bench" }),
  });
  const { key } = (await keyAnswer.json()) as { key: string };
  const login = await fetch(`${url}/login`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: "email=bench%40example.com&password=bench+password",
    redirect: "manual",
  });
  const flashCookie = sessionCookieOf(login);
  const home = await fetch(`${url}/`, { headers: { cookie: flashCookie } });
  if (!(await home.text()).includes("Signed in.")) throw new Error("the flash did not show");
  const readOnlyCookie = sessionCookieOf(home);
  for (let n = 0; n < notes; n++) {
    const response = await fetch(`${url}/api/notes`, {
      method: "POST",
      headers: authorization,
      body: JSON.stringify({ title: `Seeded note ${n}`, body: `Line ${n}` }),
    });
    if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
  }
  return { token, apiKey: key, flashCookie, readOnlyCookie };
}
