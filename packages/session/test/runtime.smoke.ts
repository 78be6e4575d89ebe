import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Session = typeof import("@tessera/session");

export default {
  does: "seal a sign-in cookie, read it back from a request, refuse a tampered or expired one",
  imports: () => ["@tessera/session"],
  async run({ load, check }) {
    const { createSessionCookies, requireUser } = await load<Session>("@tessera/session");
    let now = Date.UTC(2025, 0, 1);
    const sessions = createSessionCookies({
      appName: "smoke",
      secrets: { current: "a secret key base of at least thirty-two characters" },
      clock: () => now,
    });
    const withCookie = (cookie: string) =>
      new Request("https://app.test/posts/new?draft=1", {
        headers: { Cookie: `theme=dark; ${cookie}` },
      });

    const fresh = await sessions.read(new Request("https://app.test/login", { method: "POST" }));
    check(fresh.userId === undefined && !fresh.changed, "no cookie reads as an empty session");
    fresh.signIn(42, { rememberMe: true });
    fresh.flash("notice", "Signed in.");
    const setCookie = (await sessions.setCookie(fresh)) ?? "";
    check(
      setCookie.startsWith("_smoke_session=") &&
        setCookie.includes("Max-Age=1209600") &&
        setCookie.includes("Secure") &&
        setCookie.includes("HttpOnly") &&
        setCookie.includes("SameSite=Lax"),
      "sign-in writes a remembered, secure, HttpOnly cookie",
    );
    const cookie = setCookie.split(";")[0] ?? "";

    const back = await sessions.read(withCookie(cookie));
    check(back.userId === 42 && back.rememberMe, "the cookie reads back as user 42");
    check(back.signedInUntil === now + 1_209_600_000, "the sign-in lasts two weeks");
    const flashes = back.takeFlashes();
    check(
      flashes.length === 1 && flashes[0]?.kind === "notice" && flashes[0]?.message === "Signed in.",
      "the flash comes back once",
    );

    const [name, sealed = ""] = cookie.split("=");
    const at = Math.floor(sealed.length / 2);
    const tampered = `${name}=${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    const refused = await sessions.read(withCookie(tampered));
    check(refused.userId === undefined, "a tampered cookie reads as no sign-in");
    const cleared = await sessions.commit(refused, new Response("ok"));
    check(
      (cleared.headers.get("Set-Cookie") ?? "").startsWith("_smoke_session=; Max-Age=0"),
      "a tampered cookie is deleted at commit",
    );

    const access = await requireUser(refused, withCookie(tampered), async (id) => ({ id }));
    check(
      !access.ok &&
        access.response.status === 303 &&
        access.response.headers.get("Location") === "/login",
      "a page that needs a user answers 303 to /login",
    );
    check(
      refused.takeRememberedPage() === "/posts/new?draft=1",
      "the asked-for page is remembered",
    );

    now += 1_209_600_000;
    const expired = await sessions.read(withCookie(cookie));
    check(expired.userId === undefined, "at the expiry instant the user is signed out");
  },
} satisfies RuntimeSmoke;
