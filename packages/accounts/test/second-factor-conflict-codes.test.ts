import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { totpCode } from "../src/index.js";
import { mfaTokenOf, PASSWORD, type TwoFactorApp, twoFactorApp } from "./two-factor-app.js";

/** A new user and the token of its password sign-in. */
async function signedUp({ call }: TwoFactorApp) {
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const token = await call("/api/auth/token", { email, password: PASSWORD });
  expect(token.status).toBe(200);
  return { email, bearer: ((await token.json()) as { token: string }).token };
}

/** A user with TOTP on (and no passkey): its address and key. */
async function withTotp(subject: TwoFactorApp) {
  const { email, bearer } = await signedUp(subject);
  const setup = await subject.call("/api/auth/mfa/totp", { password: PASSWORD }, bearer);
  expect(setup.status).toBe(201);
  const key = decodeBase32IgnorePadding(((await setup.json()) as { secret: string }).secret);
  const code = totpCode(key, subject.clock.now);
  expect((await subject.call("/api/auth/mfa/totp/confirm", { code }, bearer)).status).toBe(200);
  return { email, key };
}

/** The answer as one value: status, content type and body. */
async function answerOf(response: Response) {
  return [response.status, response.headers.get("content-type"), await response.json()];
}

/** The 409 envelope of `code` and `message`. */
function conflictOf(code: string, message: string) {
  return [409, "application/json", { error: { code, message, status: 409 } }];
}

describe("the 409s of second factors, each with its own code", () => {
  it("answers turning TOTP on again with totp_already_enabled", async () => {
    const subject = await twoFactorApp();
    const { email, key } = await withTotp(subject);
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email, password: PASSWORD }),
    );
    const granted = await subject.call("/api/auth/token/mfa", {
      mfa_token,
      code: subject.nextCode(key),
    });
    expect(granted.status).toBe(200);
    const { token } = (await granted.json()) as { token: string };
    const keys = () =>
      subject.database.all<{ sealed_key: string; confirmed: number }>(
        "SELECT sealed_key, confirmed_at IS NOT NULL AS confirmed FROM user_totp",
      );
    const before = await keys();
    const again = await subject.call("/api/auth/mfa/totp", { password: PASSWORD }, token);
    expect(await answerOf(again)).toEqual(
      conflictOf("totp_already_enabled", "Two-factor codes are already on; turn them off first."),
    );
    expect(before).toEqual([{ sealed_key: expect.any(String), confirmed: 1 }]);
    expect(await keys()).toEqual(before);
  });

  it("answers a confirmation with nothing pending with totp_not_pending", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    const confirm = await subject.call("/api/auth/mfa/totp/confirm", { code: "123456" }, bearer);
    expect(await answerOf(confirm)).toEqual(
      conflictOf("totp_not_pending", "No two-factor setup is waiting for a code."),
    );
  });

  it("answers new backup codes without TOTP with totp_not_enabled", async () => {
    const subject = await twoFactorApp();
    const { bearer } = await signedUp(subject);
    const codes = await subject.call("/api/auth/mfa/backup_codes", { password: PASSWORD }, bearer);
    expect(await answerOf(codes)).toEqual(
      conflictOf("totp_not_enabled", "Two-factor codes are not on."),
    );
    const stored = await subject.database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM user_backup_codes",
    );
    expect(stored?.n).toBe(0);
  });

  it("answers passkey options for a user without a passkey with no_passkey", async () => {
    const subject = await twoFactorApp();
    const { email } = await withTotp(subject);
    const mfa_token = await mfaTokenOf(
      await subject.call("/api/auth/token", { email, password: PASSWORD }),
    );
    const options = await subject.call("/api/auth/token/mfa/options", { mfa_token });
    expect(await answerOf(options)).toEqual(
      conflictOf("no_passkey", "This account has no passkey."),
    );
  });
});
