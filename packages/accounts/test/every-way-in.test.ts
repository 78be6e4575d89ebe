import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import {
  fullSignInToken,
  PASSWORD,
  sessionFactors,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";
import { WAYS_IN } from "./ways-in.js";

describe("once a user has a second factor, every way in asks for it", () => {
  for (const [method, ways] of Object.entries(WAYS_IN)) {
    for (const [way, walk] of Object.entries(ways)) {
      if (walk === "oauth package") continue;
      it(`${way} (${method})`, async () => {
        const subject = await twoFactorApp();
        const user = await withTotpAndPasskey(subject);
        await walk(subject, user);
        // Nobody was signed in by the first step alone: no device, no sign-in announced.
        expect(await sessionFactors(subject, user.email)).toEqual([]);
        expect(subject.signIns).toEqual([]);
      });
    }
  }

  it("and a passkey that verified its user is both factors, as its token says", async () => {
    const subject = await twoFactorApp();
    const { authenticator } = await withTotpAndPasskey(subject);
    const options = await subject.call("/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id);
    const granted = await subject.call("/api/auth/passkeys/login", { challenge_id, response });
    expect(granted.status).toBe(200);
    const { token } = (await granted.json()) as { token: string };
    expect(decodeJwt(token)).toMatchObject({
      amr: ["passkey", "user_verification"],
      auth_time: Math.floor(subject.clock.now / 1000),
    });
  });
});

describe("a granted token", () => {
  it("is an answer no cache keeps, as a secret shown once", async () => {
    const subject = await twoFactorApp();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    await subject.call("/api/auth/signup", { email, password: PASSWORD });
    const granted = await subject.call("/api/auth/token", { email, password: PASSWORD });
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the token of a sign-in says how it was made", () => {
  it("the password, then the second factor", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const claims = decodeJwt(await fullSignInToken(subject, user));
    expect(claims.amr).toEqual(["password", "totp"]);
    expect(claims.auth_time).toBe(Math.floor(subject.clock.now / 1000));
    expect(claims.auth_time).toBe(claims.iat);
  });
});
