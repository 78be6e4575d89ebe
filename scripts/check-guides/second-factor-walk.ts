// The guides say second factors are on as soon as the routes are mounted: check:guides turns
// TOTP on over HTTP, as the Express guide's curl lines do, and signs in with a code.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { totpCode } from "@tessera/accounts";

/**
 * With the bearer token of the account signed up with `credentials`: turns TOTP on, then checks
 * that a right password alone now answers 403 `mfa_required`, and that the `mfa_token` with a
 * current code gives a token. The reason it went wrong, or undefined.
 */
export async function walkSecondFactor(
  origin: string,
  credentials: { readonly email: string; readonly password: string },
  bearer: string,
): Promise<string | undefined> {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const setup = await post("/api/auth/mfa/totp", { password: credentials.password }, bearer);
  if (setup.status !== 201) return `POST /api/auth/mfa/totp answered ${setup.status}`;
  const { secret } = (await setup.json()) as { secret: string };
  const key = decodeBase32IgnorePadding(secret);
  const confirm = await post(
    "/api/auth/mfa/totp/confirm",
    { code: totpCode(key, Date.now()) },
    bearer,
  );
  if (confirm.status !== 200) return `POST /api/auth/mfa/totp/confirm answered ${confirm.status}`;
  const refused = await post("/api/auth/token", credentials);
  const body = (await refused.json()) as { error?: { code?: string }; mfa_token?: string };
  if (refused.status !== 403 || body.error?.code !== "mfa_required" || !body.mfa_token) {
    return `a right password with TOTP on answered ${refused.status}, not 403 mfa_required`;
  }
  // The confirmation used up this step's code: the next step's is accepted (one step of drift).
  const code = totpCode(key, Date.now() + 30_000);
  const granted = await post("/api/auth/token/mfa", { mfa_token: body.mfa_token, code });
  if (granted.status !== 200) return `POST /api/auth/token/mfa answered ${granted.status}`;
  return undefined;
}
